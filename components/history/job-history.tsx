import type { JobRecord } from '@/lib/store/db';
import { useJobs } from './use-history';

const KIND: Record<JobRecord['kind'], string> = { discovery: 'Discovery', crawl: 'Crawl', refresh: 'Refresh', describe: 'Descriptions', check: 'Check' };

function duration(job: JobRecord): string {
  if (!job.startedAt || !job.endedAt) return '';
  const s = Math.round((job.endedAt - job.startedAt) / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Every job on the site, newest first: kind, state, when, how long, and its result or failure in words. */
export function JobHistory({ origin }: { origin: string }) {
  const jobs = useJobs(origin);
  if (!jobs || jobs.length === 0) return null;
  return (
    <section className="card" data-testid="job-history">
      <h2>History</h2>
      <table className="jobs">
        <thead><tr><th>Job</th><th>State</th><th>Started</th><th>Took</th><th>Result</th></tr></thead>
        <tbody>
          {jobs.map((j) => (
            <tr key={j.id} data-kind={j.kind} data-state={j.state}>
              <td>{KIND[j.kind]}{j.kind === 'refresh' && j.scheduled ? ' (scheduled)' : ''}</td>
              <td><span className={`pill pill--${j.state}`}>{j.state}</span></td>
              <td title={j.endedAt ? `Ended ${new Date(j.endedAt).toLocaleString()}` : 'Not ended'}>{new Date(j.startedAt ?? j.createdAt).toLocaleString()}</td>
              <td>{duration(j)}</td>
              <td className="jobs__message">{j.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
