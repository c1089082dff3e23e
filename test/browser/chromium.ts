/**
 * @module test/browser/chromium
 * The system's Chromium (Debian's `chromium` package; `.ci/run` installs it when missing) driven
 * by playwright-core, which downloads no browser of its own. `CHROMIUM_PATH` names another build.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Quiet and offline: no sandbox (CI runs as root), no GPU, no update or sync traffic. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, chromiumSandbox: false, args: FLAGS });
}
