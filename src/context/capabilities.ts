/**
 * @module context/capabilities
 * Which capabilities a run has, and why each missing one is missing. Decided by the host from the
 * agent configuration, the trust decision and what the host actually wired up; never by a
 * repository's text.
 */
import type { Capability } from './provider.ts';

export interface CapabilityGrant {
  readonly granted: ReadonlySet<Capability>;
  /** Why a capability is not granted, for the `capability-gated` outcome. */
  reason(capability: Capability): string;
}

/** Capabilities that read repository content; an untrusted task gets none of them automatically. */
const REPOSITORY_READS: readonly Capability[] = ['repo:read'];

export interface GrantInput {
  agent: { name: string; capabilities: readonly Capability[] };
  trusted: boolean;
  /** What this host can serve for this task, e.g. `repo:read` only when a snapshot exists. */
  available: readonly Capability[];
}

export function grantCapabilities({ agent, trusted, available }: GrantInput): CapabilityGrant {
  const reasons = new Map<Capability, string>();
  const granted = new Set<Capability>();
  const candidates = new Set<Capability>([...agent.capabilities, ...available, ...REPOSITORY_READS]);
  for (const capability of candidates) {
    if (!agent.capabilities.includes(capability)) reasons.set(capability, `agent "${agent.name}" does not grant ${capability}`);
    else if (!trusted && REPOSITORY_READS.includes(capability)) reasons.set(capability, `task is untrusted: ${capability} is withheld`);
    else if (!available.includes(capability)) reasons.set(capability, `${capability} is not available for this task`);
    else granted.add(capability);
  }
  return {
    granted,
    reason: (capability) => reasons.get(capability) ?? `agent "${agent.name}" does not grant ${capability}`,
  };
}
