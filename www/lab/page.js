// The page's voice: the status line, the alert and the notice, and runs
// whose every ending says what happened. Panels register what they draw
// when runs start and end (onJobs).
import { $, line } from './dom.js';
import { explain, capAlert } from './messages.js';
import { AUTOMATIC } from './jobs.js';
import { capital } from './format.js';

export function createPage(app) {
  const drawers = [];

  function say(text) {
    $('status').textContent = capAlert(text);
  }

  /** Shows an error; control, the page control the user should change, is outlined until the alert goes. */
  function showError(text, { lane = 'page', control = null } = {}) {
    // Whatever a message quotes (a cell, a name), the alert stays a few lines.
    $('alert-text').textContent = capAlert(text);
    $('alert').hidden = false;
    app.alertShown = { seq: ++app.alertSeq, lane };
    markControl(control);
  }

  function hideError() {
    $('alert').hidden = true;
    app.alertShown = null;
    markControl(null);
  }

  function markControl(control) {
    for (const el of document.querySelectorAll('.fault')) el.classList.remove('fault');
    const el = control && $(control.id);
    (el?.closest('.row, .check') ?? el)?.classList.add('fault');
  }

  /**
   * After a run of lane succeeds: an alert from the same lane, or one shown
   * before a run the user started (seq), is out of date. A newer alert about
   * something else stays.
   */
  function clearOldError(lane, seq) {
    // The automatic pictures and surfaces prove nothing about what the user ran.
    const older = !AUTOMATIC.has(lane) && app.alertShown?.seq <= seq;
    if (app.alertShown && (app.alertShown.lane === lane || older)) hideError();
  }

  /** Shows a notice (not an error): settings of a link that could not be used. Empty text hides it. */
  function notify(text, { append = false } = {}) {
    const box = $('notice-text');
    if (!append) box.replaceChildren();
    if (text) box.append(line(capAlert(text))); // a link's values are the link's: any length
    $('notice').hidden = box.childElementCount === 0;
  }

  /** The page's wording of an engine error, naming the page's controls once the vocabulary is known. */
  const wording = (e, opts = {}) => explain(e, { ...opts, controls: app.vocab?.controls });

  /**
   * Runs fn(ctl, signal) as a cancellable job (jobs.js). Every run ends in a
   * state that says what happened: on success the alerts it outdates are
   * cleared and fn says what it did; on failure the error is shown (worded
   * by failText) and the status says so; a stopped run was stopped by Cancel,
   * a newer run or new data, which say so themselves.
   *
   * Returns { ok: true, value } or { ok: false, why } with why 'failed',
   * 'cancelled', 'replaced' or 'new data'.
   */
  async function run(label, lane, fn, { failText = (text) => `${capital(label)} failed: ${text}.`, failStatus = () => `${capital(label)} failed.`, where = 'run', fallback = '' } = {}) {
    const seq = app.alertSeq;
    const outcome = await app.jobs.run(label, lane, fn);
    if (outcome.ok) clearOldError(lane, seq);
    else if (outcome.why === 'failed') {
      const ex = wording(outcome.error, { where, fallback });
      // A refusal the page worded itself may name the control to change (pageControl: its id).
      const own = outcome.error?.pageControl;
      showError(failText(ex.text), { lane, control: ex.control ?? (own ? { id: own } : null) });
      say(failStatus());
    }
    return outcome;
  }

  /** The progress line, then each panel's buttons (onJobs). */
  function renderJobs() {
    const job = app.jobs.shown;
    $('cancel').disabled = !job;
    $('progress').value = job ? job.fraction : 0;
    $('stage').textContent = job ? `${job.label}${job.stage ? ` · ${job.stage}` : ''} ${Math.round(job.fraction * 100)}%` : app.settings ? 'idle' : 'starting…';
    for (const draw of drawers) draw();
    document.body.classList.toggle('busy', app.jobs.list.length > 0);
  }

  /** Registers draw() to run whenever runs change (a panel's buttons). */
  const onJobs = (draw) => drawers.push(draw);

  return { say, showError, hideError, notify, wording, run, renderJobs, onJobs };
}
