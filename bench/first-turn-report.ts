/**
 * bench/first-turn's lines: what one pull request's first turn measured (`FirstTurn`), each case's
 * line (the median run, its timeline, Groundwork's own time before its first request and after
 * GitHub's last answer, the CPU), and, with a build before, this build against it round by round.
 */

export interface FirstTurn {
  /** Accepted delivery to turn 0 ready, in ms. */
  ms: number;
  /** GitHub requests in the window, times relative to the accepted delivery. */
  requests: Array<{ what: string; sent: number; answered: number }>;
  /** The longest chain of requests each sent after the one before it was answered. */
  chain: number;
  /** Time in the window with no GitHub request in flight: Groundwork's own. */
  own: number;
  cpuMs: number;
  /**
   * The delivery sent to its 202: GitHub's clock. Work the Worker begins beside the answer (the
   * hand-off, issue 56) must not lengthen it, and would shorten the window above if it did; so the
   * line also gives the delivery sent to turn 0 ready (this plus `ms`), which no such move shortens.
   */
  answerMs: number;
  /**
   * Accepted delivery to the answer of a client waiting on the task (`GET /tasks/:id?wait=30`): turn
   * 0 ready as an agent hears it. Absent for the floor, which has no task API.
   */
  heardMs?: number;
  /** The accepted delivery on CLOCK_MONOTONIC, in ms, to place the window in a `perf record -k CLOCK_MONOTONIC` trace. */
  acceptedMonotonicMs: number;
}

/** One build's turns, a round each: a fresh Worker's cold turn, then its warm and new-base turns. */
export interface TurnRuns {
  cold: FirstTurn[];
  warm: FirstTurn[];
  newBase: FirstTurn[];
}

/** A case's line: `rounds` round trips of `latencyMs` plus 60 ms is its goal. */
export function turnLine(name: string, all: FirstTurn[], rounds: number, latencyMs: number, label: string): string {
  const run = medianRun(all);
  return (
    `pull request first turn, ${name}: accepted delivery to turn 0 ready ${run.ms.toFixed(0)} ms (median of ${all.length}: ${all.map((each) => each.ms.toFixed(0)).join(', ')}), goal <= ${rounds * latencyMs + 60} (${rounds} round trips of ${latencyMs} ms + 60); ` +
    `${run.requests.length} GitHub requests, ${Math.max(...all.map((each) => each.chain))} one after another (the most of any run); ${median(all.map((each) => each.own)).toFixed(0)} ms with no request in flight (Groundwork's own; goal <= 60); ` +
    `the first GitHub request sent ${median(all.map(firstSent)).toFixed(0)} ms after the accepted delivery (median of all runs: Groundwork's own time before it, which GitHub's answers do not move); ` +
    `turn 0 ready ${median(all.map(afterLastAnswer)).toFixed(0)} ms after GitHub's last answer (median of all runs: Groundwork's own time after it); ` +
    heardLine(all) +
    `workerd and wrangler CPU ${median(all.map((each) => each.cpuMs)).toFixed(0)} ms; the 202 itself ${median(all.map((each) => each.answerMs)).toFixed(0)} ms after the delivery was sent, turn 0 ready ${median(all.map((each) => each.answerMs + each.ms)).toFixed(0)} ms after it; ` +
    `timeline of the median run: ${run.requests.map((request) => `${request.what} ${request.sent.toFixed(0)}-${request.answered.toFixed(0)}`).join(', ')}${label}`
  );
}

/**
 * This build's turns against the build before's, round by round: each round's pair met the same
 * moment's load, so the median of the rounds' differences moves less with the machine than the
 * difference of the two medians. Negative: this build was sooner.
 */
export function pairedLines(ours: TurnRuns, theirs: TurnRuns): string[] {
  const signed = (ms: number) => {
    const rounded = Math.round(ms);
    return rounded === 0 ? '0' : `${rounded > 0 ? '+' : ''}${rounded}`;
  };
  const pair = (name: string, mine: FirstTurn[], before: FirstTurn[]) => {
    const rounds = mine.flatMap((turn, round) => {
      const other = before[round];
      return other ? [{ ms: turn.ms - other.ms, after: afterLastAnswer(turn) - afterLastAnswer(other), ...(turn.heardMs !== undefined && other.heardMs !== undefined ? { heard: turn.heardMs - other.heardMs } : {}) }] : [];
    });
    const heard = rounds.flatMap((round) => (round.heard === undefined ? [] : [round.heard]));
    const sooner = rounds.filter((round) => round.ms < 0).length;
    return (
      `pull request first turn, ${name}, against [before] round by round: ${signed(median(rounds.map((round) => round.ms)))} ms to turn 0 ready ` +
      `(the median of ${rounds.length} rounds' differences; sooner in ${sooner}, later in ${rounds.filter((round) => round.ms > 0).length}), ` +
      `${signed(median(rounds.map((round) => round.after)))} ms after GitHub's last answer` +
      (heard.length > 0 ? `, ${signed(median(heard))} ms to the waiting client's answer (sooner in ${heard.filter((ms) => ms < 0).length})` : '')
    );
  };
  return [pair('cold', ours.cold, theirs.cold), pair('warm', ours.warm, theirs.warm), pair('warm, new base', ours.newBase, theirs.newBase)];
}

/**
 * Groundwork's own time against the floor's (bench/workers/first-turn-floor: the same turn, the
 * same requests, none of Groundwork's code), round by round: the floor's own time is local
 * workerd's (a new object's creation, KV's first read in a fresh workerd, the requests' handling),
 * which Groundwork's own includes; the difference is what its code adds.
 */
export function floorLines(ours: TurnRuns | undefined, floor: TurnRuns | undefined): string[] {
  if (!ours || !floor) return [];
  const line = (name: string, mine: FirstTurn[], bare: FirstTurn[]) => {
    const rounds = mine.flatMap((turn, round) => {
      const other = bare[round];
      return other ? [turn.own - other.own] : [];
    });
    return (
      `pull request first turn, ${name}, against [floor]: the floor's own ${median(bare.map((turn) => turn.own)).toFixed(0)} ms ` +
      `(${median(bare.map(firstSent)).toFixed(0)} before its first request, ${median(bare.map(afterLastAnswer)).toFixed(0)} after the last answer); ` +
      `Groundwork's own ${median(rounds).toFixed(0)} ms more (the median of ${rounds.length} rounds' differences)`
    );
  };
  return [line('cold', ours.cold, floor.cold), line('warm', ours.warm, floor.warm), line('warm, new base', ours.newBase, floor.newBase)];
}

/** When a client waiting on the task heard it ready, against the check run (nothing for the floor). */
function heardLine(all: FirstTurn[]): string {
  const heard = all.flatMap((turn) => (turn.heardMs === undefined ? [] : [{ heard: turn.heardMs, ms: turn.ms }]));
  if (heard.length === 0) return '';
  const after = median(heard.map((turn) => turn.heard - turn.ms));
  return `a client waiting on the task (GET /tasks/:id?wait=30) heard it ready ${median(heard.map((turn) => turn.heard)).toFixed(0)} ms after the accepted delivery (median of all runs), ${Math.abs(after).toFixed(0)} ms ${after < 0 ? 'before' : 'after'} the check run reached GitHub; `;
}

/** The run whose time is the median's (the lower middle of an even count). */
function medianRun(runs: FirstTurn[]): FirstTurn {
  const sorted = [...runs].sort((a, b) => a.ms - b.ms);
  const run = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!run) throw new Error('first turn bench: no runs');
  return run;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

/** When a run's first GitHub request was sent, from the accepted delivery. */
function firstSent(run: FirstTurn): number {
  return Math.min(...run.requests.map((request) => request.sent));
}

/** From GitHub's last answer before turn 0 was ready to ready: the turn's own work after its reads. */
function afterLastAnswer(run: FirstTurn): number {
  return run.ms - Math.max(0, ...run.requests.map((request) => request.answered));
}
