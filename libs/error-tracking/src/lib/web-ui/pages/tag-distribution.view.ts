import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import type { TagKeyDistribution } from '../../errors/tag-distribution';

/** A share as the panel writes it: whole percents, "<1%" for a sliver. */
export function percent(share: number): string {
  const value = share * 100;
  if (value > 0 && value < 1) return '<1%';
  return `${Math.round(value)}%`;
}

/**
 * The tags panel: per key, the events that carry it and its top values,
 * each with its count and share (a bar drawn in SVG, its number written
 * beside it, so it reads without colour or images).
 */
export function tagDistributionView(
  keys: readonly TagKeyDistribution[],
): SafeHtml {
  if (keys.length === 0)
    return html`<p class="muted">No tags on the kept events.</p>`;
  return html`<div class="tag-dist">
    ${keys.map(
      (key) =>
        html`<section class="tag-dist-key" data-tag-key="${key.key}">
          <h3>
            <span class="tag-dist-name">${key.key}</span>
            <span class="muted small"
              >${key.total} ${key.total === 1 ? 'event' : 'events'},
              ${key.uniqueValues}
              ${key.uniqueValues === 1 ? 'value' : 'values'}</span
            >
          </h3>
          <ul class="tag-dist-values">
            ${key.topValues.map(
              (value) =>
                html`<li data-tag-value="${value.value}">
                  <span class="tag-dist-value">${value.value}</span>
                  <span class="tag-dist-count">${value.count}</span>
                  <span class="tag-dist-share">${percent(value.share)}</span>
                  <svg
                    class="tag-dist-bar"
                    viewBox="0 0 100 6"
                    preserveAspectRatio="none"
                    aria-hidden="true"
                    focusable="false"
                  >
                    <rect class="tag-dist-track" width="100" height="6" />
                    <rect
                      class="tag-dist-fill"
                      width="${(value.share * 100).toFixed(1)}"
                      height="6"
                    />
                  </svg>
                </li>`,
            )}
          </ul>
        </section>`,
    )}
  </div>`;
}
