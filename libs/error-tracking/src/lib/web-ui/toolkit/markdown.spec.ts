import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('renders Markdown (headings, code blocks, links, lists)', () => {
    const out = renderMarkdown(
      '### Stack trace\n\n```\nfailing (app.js:3)\n```\n\n- [error](https://x.test/e/1)\n',
    ).value;
    expect(out).toContain('<h3>Stack trace</h3>');
    expect(out).toContain('<pre><code>failing (app.js:3)\n</code></pre>');
    expect(out).toContain(
      '<a href="https://x.test/e/1" rel="nofollow noopener">error</a>',
    );
  });

  it('keeps raw HTML as text: no script, no event handlers', () => {
    const out = renderMarkdown(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">',
    ).value;
    expect(out).not.toMatch(/<script|<img/i);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('drops javascript: and data: links', () => {
    const out = renderMarkdown(
      '[a](javascript:alert(1)) [b](data:text/html;base64,PHNjcmlwdD4=) [c](JaVaScRiPt:alert(1))',
    ).value;
    expect(out).not.toMatch(/href="(javascript|data):/i);
    expect(out).not.toMatch(/href=/i);
  });

  it('drops images (no tracking pixels) and unknown attributes', () => {
    const out = renderMarkdown('![x](https://evil.test/p.png)').value;
    expect(out).not.toContain('<img');
  });
});
