import type { GetDataType, GetReturnType } from '@webext-core/messaging';
import { onMessage, type CommandFailure, type PanelCommandMap } from '@/lib/messaging';

type Handler<K extends keyof PanelCommandMap> = (data: GetDataType<PanelCommandMap[K]>) => GetReturnType<PanelCommandMap[K]> | Promise<GetReturnType<PanelCommandMap[K]>>;

/**
 * Registers the worker's handler for one panel command. A handler that throws (a database write
 * refused, an extension API rejecting) answers a CommandFailure in words, logged here once; left
 * to itself the throw reached the panel as a failed message, which it could only report as "the
 * worker did not answer".
 */
export function onCommand<K extends keyof PanelCommandMap>(type: K, handler: Handler<K>): void {
  const answer = async (data: GetDataType<PanelCommandMap[K]>): Promise<GetReturnType<PanelCommandMap[K]>> => {
    try {
      return await handler(data);
    } catch (error) {
      console.error(`Scout: the ${type} command failed`, error);
      const failure: CommandFailure = { error: `Scout could not do that: ${error instanceof Error ? error.message : String(error)}` };
      return failure as GetReturnType<PanelCommandMap[K]>;
    }
  };
  onMessage(type, ({ data }) => answer(data as GetDataType<PanelCommandMap[K]>));
}
