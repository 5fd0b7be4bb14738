import { wiring, type JobWiring } from './jobs';

/** The toolbar button opens the side panel (Chrome) or toggles the sidebar (Firefox). */
export function setUpSidePanel(given: Partial<JobWiring> = {}): void {
  const { browser } = wiring(given);
  if (browser.sidePanel?.setPanelBehavior) {
    browser.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((error: unknown) => {
      console.error('Could not make the toolbar button open the side panel', error);
    });
    return;
  }
  // Firefox has no sidePanel API; its sidebar opens from the toolbar click instead.
  const sidebar = (browser as unknown as { sidebarAction?: { toggle(): Promise<void> } }).sidebarAction;
  const action = browser.action ?? (browser as unknown as { browserAction?: typeof browser.action }).browserAction;
  if (sidebar && action) action.onClicked.addListener(() => void sidebar.toggle());
}
