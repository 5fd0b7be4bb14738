// @joplin/turndown-plugin-gfm ships no types. Only the plugins this project uses are declared;
// each is an ordinary turndown plugin (a function that adds rules to a service).
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  export const gfm: TurndownService.Plugin;
  export const highlightedCodeBlock: TurndownService.Plugin;
  export const strikethrough: TurndownService.Plugin;
  export const tables: TurndownService.Plugin;
  export const taskListItems: TurndownService.Plugin;
}
