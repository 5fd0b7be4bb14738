import { setUpCheck } from './check';
import { setUpCommands } from './commands';
import { db } from '@/lib/store/db';
import { browserProcessor, setUpCrawls } from './crawl';
import { setUpDescribe } from './describe';
import { setUpDiscovery } from './discovery';
import { setUpGenerate } from './generate';
import { workerJobs } from './jobs';
import { installNetworkGuard } from './network-guard';
import { setUpPlans } from './plan';
import { setUpSchedule } from './schedule';
import { setUpSidePanel } from './side-panel';
import { limitPageStorageForTests, setUpStorage } from './storage';
import { listenForWorkerProbes } from '../offscreen/worker-probe';

// MV3 wakes the worker for an event and dispatches it right after the top level
// runs, so every listener must be registered synchronously here.
export default defineBackground(() => {
  // E2E builds only: a page store of limited room (storage.ts), set before anything opens the database.
  if (import.meta.env.SCOUT_E2E) limitPageStorageForTests(db, browser);
  // E2E builds only: Firefox's background page starts the conversion workers; a test asks one to fetch.
  if (import.meta.env.SCOUT_E2E) listenForWorkerProbes();
  void installNetworkGuard();
  // Every kind of job runs on one registry: one rule for start-if-idle, pause, cancel, end hooks and
  // keep-alive; every setUp* takes the same wiring.
  const jobs = workerJobs(browser);
  const wired = { db, browser, jobs };
  setUpSidePanel(wired);
  setUpCommands(wired);
  setUpDiscovery(wired);
  setUpCheck(wired);
  setUpPlans(wired);
  const crawls = setUpCrawls({ ...wired, processor: browserProcessor({ db, browser }) });
  setUpSchedule({ ...wired, startRefresh: crawls.startRefresh });
  setUpGenerate(wired);
  setUpDescribe(wired);
  setUpStorage(wired);
});
