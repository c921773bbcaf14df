import { describe, expect, it } from 'vitest';
import { entitySafeCut, escapeMrkdwn } from '../../shared/chat/mrkdwn.js';

describe('escapeMrkdwn', () => {
  it('escapes &, < and > as the platform asks, and nothing else', () => {
    expect(escapeMrkdwn('<!channel> see <https://evil.example|your bank>')).toBe(
      '&lt;!channel&gt; see &lt;https://evil.example|your bank&gt;',
    );
    expect(escapeMrkdwn('<@U123> <#C1> <!here> <!subteam^S1|@team>')).toBe(
      '&lt;@U123&gt; &lt;#C1&gt; &lt;!here&gt; &lt;!subteam^S1|@team&gt;',
    );
    // An entity already in the text is text: shown as written, not as the character it names.
    expect(escapeMrkdwn('AT&T &lt;b&gt;')).toBe('AT&amp;T &amp;lt;b&amp;gt;');
    expect(escapeMrkdwn('*bold* _it_ `code` :tada: @channel')).toBe('*bold* _it_ `code` :tada: @channel');
  });

  it('gives the same text escaped piece by piece as whole, wherever a stream is cut', () => {
    const text = '<!channel> & <https://evil.example|x> &amp; >';
    for (let cut = 0; cut <= text.length; cut += 1) {
      expect(escapeMrkdwn(text.slice(0, cut)) + escapeMrkdwn(text.slice(cut))).toBe(escapeMrkdwn(text));
    }
  });
});

describe('entitySafeCut', () => {
  it('moves a cut that falls inside an entity to its start, and leaves any other cut', () => {
    const escaped = 'ab&lt;cd&amp;';
    expect(entitySafeCut(escaped, 2)).toBe(2);
    expect(entitySafeCut(escaped, 3)).toBe(2);
    expect(entitySafeCut(escaped, 5)).toBe(2);
    expect(entitySafeCut(escaped, 6)).toBe(6);
    expect(entitySafeCut(escaped, 12)).toBe(8);
    expect(entitySafeCut(escaped, 13)).toBe(13);
    // Not an entity: cut where asked.
    expect(entitySafeCut('AT&T and more', 4)).toBe(4);
  });
});
