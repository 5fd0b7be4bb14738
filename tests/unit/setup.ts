// Dexie needs IndexedDB; under Node it is fake-indexeddb (a spec-complete in-memory implementation).
import 'fake-indexeddb/auto';
