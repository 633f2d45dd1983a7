import { escapeHtml, html, trustedHtml } from './html';

// Called through an alias so the formatter leaves the templates as written.
const t = html;

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const name = `<script>alert("x")</script>' onmouseover='x`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x</p>',
    );
  });

  it('keeps nested fragments and joins arrays without escaping them twice', () => {
    const items = ['a&b', '<i>'].map((s) => t`<li>${s}</li>`);
    expect(t`<ul>${items}</ul>`.value).toBe(
      '<ul><li>a&amp;b</li><li>&lt;i&gt;</li></ul>',
    );
  });

  it('renders nothing for null, undefined and false, and numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${true}`.value).toBe('0true');
  });

  it('passes trusted fragments through untouched', () => {
    expect(html`${trustedHtml('<b>ok</b>')}`.value).toBe('<b>ok</b>');
    expect(escapeHtml('`&')).toBe('&#96;&amp;');
  });
});
