/**
 * @module sources/git/smart-http
 * The two requests of git's smart HTTP protocol: discovery (`GET $GIT_URL/info/refs?service=
 * git-upload-pack`) and a command (`POST $GIT_URL/git-upload-pack`). Facts from git 2.39.5's
 * gitprotocol-http(5) ("Smart Clients", "Smart Server Response": the status MUST be 200, the
 * content type `application/x-git-upload-pack-advertisement`, a POST sends
 * `application/x-git-upload-pack-request` and gets `application/x-git-upload-pack-result`) and
 * gitprotocol-v2(5) ("HTTP Transport": `Git-Protocol: version=2` asks for v2; "Command Request":
 * `command=`, capabilities, a delim-pkt, the arguments, a flush-pkt).
 */
import type { GitHttp } from './http-client.ts';
import { parseAdvertisement, type Advertisement } from './ref-advertisement.ts';
import { DELIM_PKT, FLUSH_PKT, pktLine, shown } from './pkt-line.ts';
import { PermanentSourceError } from '../permanent.ts';

const SERVICE = 'git-upload-pack';

/** `version2` asks for protocol v2; a server that predates it answers v0 all the same. */
export async function discover(http: GitHttp, url: string, headers: Record<string, string>, version2: boolean): Promise<Advertisement> {
  const answer = await http({ url: `${url}/info/refs?service=${SERVICE}`, method: 'GET', headers: { ...headers, ...(version2 ? { 'Git-Protocol': 'version=2' } : {}) } });
  expectType(answer.contentType, `application/x-${SERVICE}-advertisement`, url);
  return parseAdvertisement(answer.body);
}

/** Posts `body` (pkt-lines) to upload-pack and returns the answer's bytes. */
export async function uploadPack(http: GitHttp, url: string, headers: Record<string, string>, body: string, version2: boolean): Promise<Uint8Array> {
  const answer = await http({
    url: `${url}/${SERVICE}`,
    method: 'POST',
    headers: {
      ...headers,
      'Content-Type': `application/x-${SERVICE}-request`,
      Accept: `application/x-${SERVICE}-result`,
      ...(version2 ? { 'Git-Protocol': 'version=2' } : {}),
    },
    body,
  });
  expectType(answer.contentType, `application/x-${SERVICE}-result`, url);
  return answer.body;
}

/** A v2 command request: `command=<name>`, no capabilities of ours, then its arguments. */
export function commandRequest(command: string, args: readonly string[]): string {
  return `${pktLine(`command=${command}\n`)}${DELIM_PKT}${args.map((arg) => pktLine(`${arg}\n`)).join('')}${FLUSH_PKT}`;
}

function expectType(contentType: string, expected: string, url: string): void {
  // A dumb server, a login page or a proxy's error page: git's own client stops here too.
  if (contentType.split(';')[0]?.trim().toLowerCase() !== expected) {
    throw new PermanentSourceError(`${url} is not a smart-HTTP git server: it answered with content type ${shown(contentType)}, not ${expected}`);
  }
}
