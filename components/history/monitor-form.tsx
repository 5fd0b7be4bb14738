import { useState } from 'react';
import type { MonitorSettings } from '@/lib/store/db';
import { SCHEDULE_CHOICES } from '@/lib/refresh/schedule';
import { DEFAULT_THRESHOLD } from '@/lib/refresh/similarity';
import { CommandError, useCommand } from '../use-command';

const label = (h: number) => (h === 0 ? 'Off' : h === 6 ? 'Every 6 hours' : h === 24 ? 'Daily' : h === 168 ? 'Weekly' : `Every ${h} hours`);

/**
 * The schedule and the change threshold. Notifications are asked for when a
 * schedule is turned on (the result of a background refresh arrives as one),
 * and a schedule works without them.
 */
export function MonitorForm({ origin, monitor }: { origin: string; monitor: MonitorSettings | undefined }) {
  const everyHours = monitor?.everyHours ?? 0;
  const threshold = monitor?.threshold ?? DEFAULT_THRESHOLD;
  const [note, setNote] = useState<string | null>(null);
  const { run, error } = useCommand();

  const save = async (change: { everyHours: number; threshold: number }) => {
    setNote(null);
    if (change.everyHours > 0 && everyHours === 0) {
      // Must run in the click's gesture: permissions.request needs one.
      const allowed = (await browser.permissions.contains({ permissions: ['notifications'] })) || (await browser.permissions.request({ permissions: ['notifications'] }).catch(() => false));
      if (!allowed) setNote('Scheduled refreshes will run, but without notifications: results show here.');
    }
    await run('setMonitor', { origin, ...change });
  };

  return (
    <section className="card settings" data-testid="monitor-form">
      <h2>Keep it current</h2>
      <div className="settings__grid">
        <label>
          Scheduled refresh
          <select value={everyHours} onChange={(e) => void save({ everyHours: Number(e.target.value), threshold })} data-testid="schedule">
            {SCHEDULE_CHOICES.map((h) => <option key={h} value={h}>{label(h)}</option>)}
          </select>
        </label>
        <label>
          Changed when similarity is below
          <input type="number" min={0.5} max={1} step={0.01} defaultValue={threshold} key={threshold} onBlur={(e) => void save({ everyHours, threshold: Number(e.target.value) })} data-testid="threshold" />
        </label>
      </div>
      <p className="muted" data-testid="schedule-next">
        {everyHours > 0 && monitor?.nextAt ? `Next check ${new Date(monitor.nextAt).toLocaleString()}, in the background while the browser runs.` : 'Off: refresh only when you click Refresh now.'}
      </p>
      {note && <p className="note">{note}</p>}
      <CommandError error={error} />
    </section>
  );
}
