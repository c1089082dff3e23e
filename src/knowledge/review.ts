/**
 * @module knowledge/review
 * Review dates: 90 days ahead unless the writer says otherwise (at most a year), and listed as
 * due two weeks ahead, so a team can refresh knowledge before the memory provider stops serving
 * it the day after its review date.
 */

/** A review date not given is this many days after the day the knowledge is written. */
export const DEFAULT_REVIEW_DAYS = 90;

/** `status=due` (and Slack's `knowledge` command) lists what falls due within this many days. */
export const DUE_WITHIN_DAYS = 14;
