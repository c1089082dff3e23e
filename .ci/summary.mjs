// Reads vitest's JSON report and prints `tests: N passed, N failed`. A test file that failed to
// load has no test results, so it counts as one failure rather than vanishing from the total.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const brokenFiles = report.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
const passed = report.numPassedTests;
const failed = report.numFailedTests + brokenFiles;
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(passed > 0 && failed === 0 ? 0 : 1);
