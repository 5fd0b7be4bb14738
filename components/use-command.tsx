import type { GetDataType, GetReturnType } from '@webext-core/messaging';
import { useCallback, useState } from 'react';
import { sendMessage, type ProtocolMap } from '@/lib/messaging';

export type Command = keyof ProtocolMap;
export type CommandAnswer<K extends Command> = Awaited<GetReturnType<ProtocolMap[K]>>;

/** Words for a command the worker never answered (it was stopped, or the extension reloaded). */
export function noAnswer(error: unknown): string {
  return `Scout’s background worker did not answer (${error instanceof Error ? error.message : String(error)}). Close and reopen the panel.`;
}

/**
 * The panel's one way to send a command to the worker. Whatever goes wrong — no answer, or an
 * answer with `error` — becomes `error`, in words, for the card that sent it to show with
 * <CommandError>; `busy` is true while a command is out. Before this, each card wrote its own
 * try/catch, and the Pause, Resume and Cancel buttons sent theirs with `void`, so a failure
 * vanished without a word.
 *
 * `run` resolves to the worker's answer (error answers included, for a caller that needs more
 * than the words, like describe's consent), or undefined when there was none.
 */
export function useCommand(): {
  run: <K extends Command>(type: K, data: GetDataType<ProtocolMap[K]>) => Promise<CommandAnswer<K> | undefined>;
  error: string | null;
  busy: boolean;
  setError: (error: string | null) => void;
} {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(0);
  const run = useCallback(async <K extends Command>(type: K, data: GetDataType<ProtocolMap[K]>): Promise<CommandAnswer<K> | undefined> => {
    setError(null);
    setPending((n) => n + 1);
    try {
      const answer = (await sendMessage(type, data)) as CommandAnswer<K>;
      const said = errorOf(answer);
      if (said) setError(said);
      return answer;
    } catch (e) {
      setError(noAnswer(e));
      return undefined;
    } finally {
      setPending((n) => n - 1);
    }
  }, []);
  return { run, error, busy: pending > 0, setError };
}

/** The `error` an answer carries, if any. */
export function errorOf(answer: unknown): string | null {
  if (answer && typeof answer === 'object' && 'error' in answer && typeof answer.error === 'string') return answer.error;
  return null;
}

/** Where a card shows its command's failure. */
export function CommandError({ error }: { error: string | null }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}
