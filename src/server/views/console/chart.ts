import { html, type SafeHtml } from './html.js';

// The billing page's bar chart, as server-rendered SVG (no library, no script): one bar
// per day, its height the day's spend; a table of the same numbers follows for screen readers.

export interface DayTotal {
  /** YYYY-MM-DD (UTC). */
  day: string;
  cents: number;
}

const WIDTH = 640;
const HEIGHT = 180;
const AXIS = 24;

export function barChart(days: DayTotal[], title: string): SafeHtml {
  const max = Math.max(1, ...days.map((d) => d.cents));
  const slot = (WIDTH - AXIS) / Math.max(1, days.length);
  const bars = days.map((d, i) => {
    const h = Math.round((d.cents / max) * (HEIGHT - 2 * AXIS));
    const x = AXIS + i * slot + slot * 0.15;
    const y = HEIGHT - AXIS - h;
    return html`<rect class="bar" x="${x.toFixed(1)}" y="${y}" width="${(slot * 0.7).toFixed(1)}" height="${h}"><title>${d.day}: $${(d.cents / 100).toFixed(2)}</title></rect>${i % Math.ceil(days.length / 7) === 0 ? html`<text x="${x.toFixed(1)}" y="${HEIGHT - 6}">${d.day.slice(5)}</text>` : ''}`;
  });
  return html`<figure><svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-labelledby="chart-title"><title id="chart-title">${title}</title>
<line x1="${AXIS}" y1="${HEIGHT - AXIS}" x2="${WIDTH}" y2="${HEIGHT - AXIS}" stroke="#57606a"></line>
<text x="${AXIS}" y="14">max $${(max / 100).toFixed(2)}</text>
${bars}</svg>
<figcaption class="muted">${title}</figcaption></figure>
<details><summary>The numbers</summary><table><thead><tr><th scope="col">Day</th><th scope="col">Spend</th></tr></thead><tbody>${days.map((d) => html`<tr><td>${d.day}</td><td>$${(d.cents / 100).toFixed(2)}</td></tr>`)}</tbody></table></details>`;
}
