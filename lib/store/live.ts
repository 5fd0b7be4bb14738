import { liveQuery } from 'dexie';

/** A watch that can be ended: what a caller outside the store holds instead of Dexie's subscription. */
export interface Watch {
  unsubscribe(): void;
}

/**
 * Runs `query` (a function of the store's own) now and again whenever a table it read changes,
 * and hands each answer to `next`: the panel's way to follow the database without polling, for
 * code outside React (components use dexie-react-hooks' useLiveQuery with the same functions).
 */
export function watchQuery<T>(query: () => Promise<T>, next: (value: T) => void, error: (error: unknown) => void): Watch {
  const subscription = liveQuery(query).subscribe({ next, error });
  return { unsubscribe: () => subscription.unsubscribe() };
}
