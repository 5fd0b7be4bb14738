import { setUpCheck } from './check';
import { setUpCommands } from './commands';
import { db } from '@/lib/db';
import { browserProcessor, setUpCrawls } from './crawl';
import { setUpDescribe } from './describe';
import { setUpDiscovery } from './discovery';
import { setUpGenerate } from './generate';
import { installNetworkGuard } from './network-guard';
import { setUpPlans } from './plan';
import { createSchedule } from './schedule';
import { setUpSidePanel } from './side-panel';
import { setUpStorage } from './storage';

// MV3 wakes the worker for an event and dispatches it right after the top level
// runs, so every listener must be registered synchronously here.
export default defineBackground(() => {
  void installNetworkGuard();
  setUpSidePanel();
  setUpCommands();
  setUpDiscovery();
  setUpCheck();
  setUpPlans();
  const schedule = createSchedule({ db, browser });
  const crawls = setUpCrawls({ db, browser, processor: browserProcessor({ db, browser }), hooks: schedule.hooks });
  schedule.setUp(crawls.startRefresh);
  setUpGenerate();
  setUpDescribe();
  setUpStorage({ db });
});
