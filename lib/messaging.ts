import { defineExtensionMessaging } from '@webext-core/messaging';

/**
 * Every command the side panel can send to the background worker.
 * Commands return at once (MV3 ends an event after 5 minutes, so no handler
 * awaits long work); results flow back through Dexie live queries.
 */
export interface ProtocolMap {
  /** Health check; returns the extension version. */
  ping(): { version: string };
  /** The panel is showing this page: record the site and refresh its discovery if stale. */
  openSite(data: { url: string }): { origin: string };
  /**
   * Runs discovery for the page (or joins the run already going for its site).
   * Answers `no-access` when the site's host permission is missing.
   */
  startDiscovery(data: { url: string }): { jobId: string } | { error: 'no-access' };
}

export const { sendMessage, onMessage, removeAllListeners } = defineExtensionMessaging<ProtocolMap>();
