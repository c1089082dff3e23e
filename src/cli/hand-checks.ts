/**
 * @module cli/hand-checks
 * Every command reads providers' answers by hand before the zod schemas (context/answer-checks):
 * a short-lived process would otherwise build the schemas and walk every entry and rule verdict
 * through them, some 6 ms of a session-start hook's 65 (issue 56). Imported by cli/zod-config,
 * which every command imports first.
 */
import { installHandChecks } from '../context/answer-checks.ts';
import { HAND_CHECKS } from '../context/answer-checks-by-hand.ts';

installHandChecks(HAND_CHECKS);
