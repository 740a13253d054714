/**
 * The console's stylesheet, served as /console/console.css (a file, not inline: the
 * page's CSP allows styles from this origin only). Colours keep at least 4.5:1
 * contrast on their backgrounds (WCAG AA); focus is always visible.
 */
export const CONSOLE_CSS = `
:root { --fg: #14171f; --muted: #4a5263; --bg: #f6f7f9; --card: #fff; --line: #d0d5dd; --accent: #1d4ed8; --danger: #b42318; --warn: #8a4b00; --good: #067647; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; }
.skip:focus { left: 1rem; z-index: 10; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
header { background: #101828; color: #fff; }
nav { display: flex; align-items: center; gap: 1.5rem; max-width: 80rem; margin: 0 auto; padding: .5rem 1.5rem; }
nav .brand { font-weight: 700; }
nav ul { display: flex; gap: .25rem; list-style: none; margin: 0; padding: 0; flex: 1; flex-wrap: wrap; }
nav a { color: #fff; text-decoration: none; padding: .4rem .75rem; border-radius: .375rem; display: inline-block; }
nav a:hover { background: #344054; }
nav a[aria-current="page"] { background: #fff; color: #101828; font-weight: 600; }
main { max-width: 80rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
main:focus, [tabindex="-1"]:focus { outline: none; }
input.wide { min-width: 24rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 .75rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
h3 { font-size: 1rem; margin: 0 0 .5rem; }
.muted { color: var(--muted); }
button { font: inherit; padding: .45rem 1rem; border: 1px solid var(--accent); border-radius: .375rem; background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: var(--card); color: var(--accent); }
button.danger { background: var(--danger); border-color: var(--danger); }
input, select, textarea { font: inherit; padding: .4rem .5rem; border: 1px solid #667085; border-radius: .375rem; background: #fff; color: var(--fg); min-width: 12rem; }
textarea { font-family: ui-monospace, monospace; width: 100%; }
[aria-invalid="true"] { border-color: var(--danger); }
.field { display: flex; flex-direction: column; gap: .2rem; }
.field label { font-weight: 600; font-size: .9rem; }
.field-error { color: var(--danger); margin: .25rem 0; min-height: 1px; }
form.search { display: flex; flex-wrap: wrap; align-items: flex-end; gap: .75rem; background: var(--card); padding: 1rem; border: 1px solid var(--line); border-radius: .5rem; }
.signin { max-width: 24rem; margin: 4rem auto; display: flex; flex-direction: column; gap: .9rem; background: var(--card); padding: 2rem; border: 1px solid var(--line); border-radius: .5rem; }
.refusal { max-width: 36rem; margin-top: 4rem; }
.notice { padding: .5rem .75rem; border-radius: .375rem; margin: .75rem 0; }
.notice.ok { background: #ecfdf3; color: var(--good); }
.notice.error { background: #fef3f2; color: var(--danger); }
table { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); margin: .75rem 0; }
caption { text-align: left; font-weight: 600; padding: .5rem 0; }
th, td { text-align: left; padding: .45rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { background: #eef0f4; font-size: .85rem; }
td.good { color: var(--good); } td.bad { color: var(--danger); }
.grid { display: grid; grid-template-columns: minmax(20rem, 1fr) minmax(20rem, 1fr); gap: 1.5rem; align-items: start; }
table.queue td.depth { font-size: 1.3rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.stats { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; margin-top: 2.6rem; }
.stat { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; }
.stat-label { color: var(--muted); font-size: .85rem; }
.stat-value { font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; margin-left: .5rem; padding: 0 .5rem; border-radius: 1rem; font-size: .8rem; font-weight: 600; }
.badge.warn { background: #fffaeb; color: var(--warn); border: 1px solid #fec84b; }
.badge.ok { background: #ecfdf3; color: var(--good); border: 1px solid #75e0a7; margin-left: 0; }
.badge.danger { background: #fef3f2; color: var(--danger); border: 1px solid #fda29b; margin-left: 0; }
table.providers .badge.warn { margin-left: 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: .75rem; }
.chart { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .75rem; }
.chart figcaption { font-size: .85rem; font-weight: 600; }
.spark { width: 100%; height: 56px; }
.spark .line { stroke: var(--accent); stroke-width: 2; }
.spark .axis { stroke: var(--line); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; background: var(--card); padding: 1rem; border: 1px solid var(--line); border-radius: .5rem; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
ol.timeline { list-style: none; margin: 0; padding: 0 0 0 1.25rem; border-left: 3px solid var(--line); }
ol.timeline li { position: relative; margin: 0 0 1rem; padding-left: .75rem; }
ol.timeline li::before { content: ""; position: absolute; left: -1.78rem; top: .35rem; width: .8rem; height: .8rem; border-radius: 50%; background: var(--accent); }
ol.timeline .event { font-weight: 700; }
ol.timeline time { color: var(--muted); font-size: .9rem; }
dl.detail { display: grid; grid-template-columns: max-content 1fr; gap: 0 .75rem; margin: .25rem 0 0; font-size: .9rem; }
dl.detail dt { color: var(--muted); } dl.detail dd { margin: 0; word-break: break-all; }
.low-switch { background: #fffaeb; border: 2px solid #fec84b; border-radius: .5rem; padding: 1rem 1.25rem; }
.low-switch h2 { margin-top: 0; }
button.switch { display: inline-flex; align-items: center; gap: .75rem; background: var(--card); color: var(--fg); border: 2px solid #667085; font-weight: 700; font-size: 1.05rem; }
button.switch .knob { width: 2.6rem; height: 1.4rem; border-radius: 1rem; background: #98a2b3; position: relative; }
button.switch .knob::after { content: ""; position: absolute; top: .15rem; left: .15rem; width: 1.1rem; height: 1.1rem; border-radius: 50%; background: #fff; }
button.switch.on { border-color: var(--warn); color: var(--warn); }
button.switch.on .knob { background: var(--warn); }
button.switch.on .knob::after { left: 1.35rem; }
form.flag { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; margin: 0 0 .75rem; }
.actions { display: flex; gap: .75rem; align-items: center; margin-top: .5rem; }
#user .actions { margin-bottom: 1rem; }
.endpoint { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; margin: 0 0 1rem; }
.endpoint h2 { margin-top: 0; font-size: 1rem; word-break: break-all; }
dialog { border: 1px solid var(--line); border-radius: .5rem; padding: 1.25rem; max-width: 30rem; }
dialog::backdrop { background: rgb(16 24 40 / 50%); }
.message-frame { width: 100%; height: 26rem; border: 1px solid var(--line); border-radius: .5rem; background: #fff; resize: vertical; }
pre.message-body { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; margin: 0 0 1rem; font-size: .9rem; }
table.headers th { font-weight: 600; white-space: nowrap; } table.headers td { overflow-wrap: anywhere; }
#detail { scroll-margin-top: 1rem; }
code { font-family: ui-monospace, monospace; font-size: .9em; }
@media (max-width: 60rem) { .grid { grid-template-columns: 1fr; } .stats { margin-top: 0; } }
`;
