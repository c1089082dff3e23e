/**
 * @module views/styles
 * The inspector's one stylesheet, sent inline with the page's CSP nonce (no external assets).
 * Readable from 375 px up: long lines wrap, wide tables scroll inside their own box.
 */
export const STYLES = `
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #0969da;
  --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --gate: #8250df; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 16px; overflow-wrap: anywhere; }
h1 { font-size: 1.45rem; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.02rem; margin: 18px 0 6px; }
h4 { font-size: 0.95rem; margin: 14px 0 4px; }
a { color: var(--accent); overflow-wrap: anywhere; }
code, pre, .mono { font-family: var(--mono); font-size: 0.86em; }
.muted { color: var(--muted); }
.sub { margin: 0 0 12px; color: var(--muted); overflow-wrap: anywhere; }
nav.crumbs { font-size: 0.9rem; margin-bottom: 8px; }
.account { float: right; margin: 0 0 8px 12px; font-size: 0.9rem; }
.account button { font: inherit; padding: 2px 8px; }
p.warn { color: var(--warn); font-weight: 600; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 12px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
.scroll table { overflow-wrap: normal; }
td.config { min-width: 28ch; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-weight: 600; white-space: nowrap; }
tr:last-child td { border-bottom: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.reason { min-width: 16ch; overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 0 7px; border-radius: 999px; font-size: 0.8rem; border: 1px solid currentColor; white-space: nowrap; }
.o-included, .s-ready { color: var(--ok); }
.o-empty, .o-disabled, .o-turn-gated, .s-pending { color: var(--muted); }
.o-capability-gated, .s-assembling { color: var(--gate); }
.o-timed-out, .o-budget-excluded { color: var(--warn); }
.o-failed, .o-invalid, .s-failed { color: var(--bad); }
svg.bar { width: 120px; height: 10px; display: block; flex: none; }
.duration { display: inline-flex; align-items: center; gap: 6px; white-space: nowrap; font-variant-numeric: tabular-nums; }
svg.bar rect.track { fill: var(--soft); stroke: var(--line); }
svg.bar rect.fill { fill: var(--accent); }
svg.window { width: 100%; height: 30px; display: block; border: 1px solid var(--line); border-radius: 4px; background: var(--soft); }
svg.window rect.seg { stroke: #fff; stroke-width: 1; vector-effect: non-scaling-stroke; }
svg.window a:hover rect.seg, svg.window a:focus rect.seg { opacity: 0.75; }
svg.window .mark { stroke: var(--fg); stroke-width: 3; vector-effect: non-scaling-stroke; }
svg.window .mark-earlier { stroke-dasharray: 5 3; stroke: var(--accent); }
.w-host { fill: #afb8c1; } .w-system { fill: #54aeff; } .w-rules { fill: #4ac26b; } .w-skills { fill: #c297ff; } .w-memory { fill: #ff8182; }
.w-notice { fill: #d4a72c; } .w-task { fill: #fb8f44; } .w-transcript { fill: #6e7781; } .w-mark-prefix { fill: var(--fg); }
ol.groups, ul.legend { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: 0.88rem; }
ol.groups li + li::before { content: "→ "; color: var(--muted); }
ul.legend li { display: inline-flex; align-items: center; gap: 4px; }
.figures { white-space: nowrap; overflow-wrap: normal; font-variant-numeric: tabular-nums; }
svg.swatch { width: 11px; height: 11px; flex: none; }
ul.budgets { list-style: none; padding: 0; margin: 4px 0; font-size: 0.92rem; }
ul.budgets > li { margin: 3px 0; }
.budget-head { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; }
ul.cuts { margin: 2px 0 6px; padding-left: 20px; color: var(--warn); font-size: 0.88rem; }
details { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; background: #fff; }
details > summary { cursor: pointer; padding: 8px 10px; list-style-position: inside; overflow-wrap: anywhere; }
details[open] > summary { border-bottom: 1px solid var(--line); background: var(--soft); }
details .meta { padding: 8px 10px 0; margin: 0; font-size: 0.9rem; }
pre.body { margin: 0; padding: 10px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 70vh; overflow: auto; }
.kind { font-family: var(--mono); font-size: 0.8rem; padding: 1px 6px; border-radius: 4px; background: var(--soft); border: 1px solid var(--line); }
.k-system { background: #eef1f4; } .k-task { background: #dafbe1; } .k-context { background: #ddf4ff; } .k-notice { background: #fff8c5; } .k-mailbox { background: #fbefff; }
.ctl { font-family: var(--mono); font-size: 0.75em; color: var(--bad); border: 1px dotted var(--bad); border-radius: 3px; padding: 0 2px; margin: 0 1px; }
ul.warnings { margin: 6px 0; padding-left: 20px; color: var(--warn); }
.cut { font-size: 0.85rem; color: var(--warn); padding: 6px 10px; margin: 0; }
form.filters { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: end; margin: 12px 0; }
form.filters label { display: flex; flex-direction: column; font-size: 0.85rem; color: var(--muted); }
form.filters select, form.filters input, form.filters button { font: inherit; padding: 4px 6px; }
.pager { margin: 12px 0; }
@media (max-width: 600px) {
  main { padding: 10px; }
  dl.facts { grid-template-columns: 1fr; gap: 0; }
  dl.facts dd { margin-bottom: 6px; }
  svg.bar { width: 64px; }
}
`;
