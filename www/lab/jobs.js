// Runs as cancellable jobs in lanes ('load', 'pictures', 'playground', 'line1d',
// 'active', 'train', 'sweep', 'export', 'model'): a new job replaces the
// one in its lane, every job reports progress over all its steps, and every
// run ends with an outcome that says how it ended. No DOM: page.js draws
// the jobs and the messages.

/** Throws an AbortError when signal is aborted (between engine calls). */
export function check(signal) {
  if (signal.aborted) throw new DOMException('cancelled', 'AbortError');
}

/**
 * promise, or an AbortError as soon as signal is aborted: a job's Cancel
 * stops its wait on something the job does not own (the engine starting),
 * which cannot be cancelled itself.
 */
export function orAbort(promise, signal) {
  if (signal.aborted) return Promise.reject(new DOMException('cancelled', 'AbortError'));
  let onAbort;
  const aborted = new Promise((resolve, reject) => {
    onAbort = () => reject(new DOMException('cancelled', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** Lanes of the runs the page starts by itself when settings move (pictures and surfaces), not by a button. */
export const AUTOMATIC = new Set(['pictures', 'playground', 'line1d']);

/** Whether e is a stop rather than a failure (the engine's or the page's). */
export const isAbort = (e) => e?.name === 'AbortError' || e?.code === 'ERR_ABORTED';

export class Jobs {
  /** Runs in progress: {label, lane, controller, fraction, stage, why}. */
  #jobs = new Set();
  #onChange;

  /** onChange() is called whenever a job starts, progresses or ends. */
  constructor(onChange = () => {}) {
    this.#onChange = onChange;
  }

  /** The jobs in progress, oldest first. */
  get list() {
    return [...this.#jobs];
  }

  /** The job the progress bar follows: the newest the user started; automatic updates (AUTOMATIC) come last. */
  get shown() {
    const list = this.list;
    return list.findLast((j) => !AUTOMATIC.has(j.lane)) ?? list.at(-1) ?? null;
  }

  busy(lane) {
    return this.list.some((j) => j.lane === lane);
  }

  /** Stops a job; why ('cancelled', 'replaced', 'new data') is what its run reports. */
  static stop(job, why) {
    job.why ??= why;
    job.controller.abort();
  }

  /** Stops the jobs for which keep(job) is false (all by default); returns their labels. */
  stopAll(why, keep = () => false) {
    const stopped = this.list.filter((j) => !keep(j));
    for (const j of stopped) Jobs.stop(j, why);
    return stopped.map((j) => j.label);
  }

  /**
   * Runs fn(ctl, signal) as a job in lane, replacing the lane's running
   * job. ctl(i, n) gives the {signal, onProgress} of step i of n, so the
   * progress covers the whole job. A run stopped just as its last step
   * finished has no say any more.
   *
   * Resolves to { ok: true, value }, { ok: false, why: 'failed', error },
   * or { ok: false, why } with why 'cancelled', 'replaced' or 'new data'.
   */
  async run(label, lane, fn) {
    for (const j of this.#jobs) if (j.lane === lane) Jobs.stop(j, 'replaced');
    const job = { label, lane, controller: new AbortController(), fraction: 0, stage: '', why: null };
    this.#jobs.add(job);
    this.#onChange();
    const signal = job.controller.signal;
    const ctl = (i, n) => ({
      signal,
      onProgress: (p) => {
        job.fraction = (i + (p.total > 0 ? p.done / p.total : 0)) / n;
        job.stage = p.stage;
        this.#onChange();
      },
    });
    try {
      const value = await fn(ctl, signal);
      check(signal);
      return { ok: true, value };
    } catch (error) {
      if (signal.aborted || isAbort(error)) return { ok: false, why: job.why ?? 'cancelled' };
      return { ok: false, why: 'failed', error };
    } finally {
      this.#jobs.delete(job);
      this.#onChange();
    }
  }
}
