/**
 * Why a zip entry or written path is unsafe on some system (absolute, `..`, a character or name
 * Windows refuses, a name over 255 bytes), checked here by hand rather than with the code under
 * test; null when it is safe everywhere.
 */
export function unsafe(path: string): string | null {
  if (path.startsWith('/')) return 'absolute';
  for (const name of path.split('/')) {
    if (name === '' || /^\.+$/.test(name)) return `"${name}" segment`;
    if (/[\\:*?"<>|]/.test(name)) return 'forbidden character (backslash, drive colon…)';
    if (/\p{Cc}|\p{Cf}/u.test(name)) return 'control or formatting character';
    if (/[. ]$/.test(name)) return 'trailing dot or space';
    if (/^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i.test(name.split('.')[0]?.trimEnd() ?? '')) return 'Windows device name';
    if (new TextEncoder().encode(name).length > 255) return 'name over 255 bytes';
  }
  return null;
}
