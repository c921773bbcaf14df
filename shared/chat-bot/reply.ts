import type { WebClient } from '@slack/web-api';
import type { AgentEvent } from '../agent/index.js';
import type { AppLogger } from '../platform/logger.js';
import { errorMessage } from '../platform/errors.js';
import { entitySafeCut, escapeMrkdwn } from '../chat/index.js';

/** Where a reply goes: the thread, and who it answers (streaming outside a DM names its recipient). */
export interface ReplyTarget {
  channel: string;
  threadTs: string;
  userId: string;
  teamId: string | undefined;
}

/** The platform's limit is 40 000 characters; answers are split into readable messages well below it (and a section block's 3 000). */
export const MAX_MESSAGE_CHARS = 2_900;
/** A message is written to at most once a second: the platform's rate limits, and readable. */
const FLUSH_MS = 1_000;

const THINKING = 'is thinking…';

/** One message of the reply: its ts once posted, its text, and the text not yet sent (both escaped for the platform's markup). */
interface Segment {
  ts: string | undefined;
  text: string;
  pending: string;
}

/**
 * One answer in a thread, while the agent works and when it is done:
 * - a status: the platform's assistant status ("is thinking…", then the tool being called), or,
 *   where the app may not set one, a placeholder message that says the same and later becomes
 *   the answer;
 * - the answer streamed into one message with the streaming methods (`chat.startStream`,
 *   `appendStream`, `stopStream`), or, where those are refused, with `chat.update` — either way
 *   written at most once a second, and continued in a new message past the length limit;
 * - the last message gets the blocks of `finish` (the 👍/👎 buttons).
 *
 * Every platform call goes through one queue, so they happen in order; a failed call is logged
 * and the reply goes on (a lost status must not lose the answer).
 */
export class ThreadReply {
  private queue: Promise<void> = Promise.resolve();
  private statusMode: 'unknown' | 'assistant' | 'placeholder' = 'unknown';
  private textMode: 'stream' | 'update' = 'stream';
  private placeholderTs: string | undefined;
  /** The message being written, its text so far, and what has not reached the platform yet. */
  private current: Segment = { ts: undefined, text: '', pending: '' };
  private flushTimer: NodeJS.Timeout | undefined;
  private lastFlush = 0;
  private wrote = false;

  constructor(
    private readonly client: WebClient,
    private readonly target: ReplyTarget,
    private readonly logger: AppLogger,
  ) {}

  /** Shows that the agent is at work. */
  start(): Promise<void> {
    return this.enqueue(() => this.setStatus(THINKING));
  }

  /** Whether any of the answer's text has been written (a paused query may have said nothing yet). */
  get hasText(): boolean {
    return this.wrote;
  }

  /**
   * Told of each event of the loop: tool calls change the status, text is written. The reply's
   * text begins at its first visible character (a resumed answer's first delta carries the blank
   * line between it and the text before the pause, which is in an earlier message).
   */
  onEvent(event: AgentEvent): void {
    if (event.type === 'tool_call') void this.enqueue(() => this.setStatus(`is calling ${event.name}…`));
    else if (event.type === 'text') {
      const text = this.wrote ? event.delta : event.delta.trimStart();
      if (!text) return;
      this.wrote = true;
      this.write(text);
    }
  }

  /** The answer is complete: writes what is left, with `blocks` on the last message. */
  async finish(finalText: string, blocks: unknown[]): Promise<void> {
    clearTimeout(this.flushTimer);
    if (finalText) this.write(finalText, false);
    await this.enqueue(async () => {
      await this.flush(this.current, blocks);
      if (this.statusMode === 'assistant') await this.setStatus('');
      else if (this.placeholderTs && this.placeholderTs !== this.current.ts) await this.removePlaceholder();
    });
  }

  /** Nothing was answered (an error before the loop): the reply is a plain message, and the status goes. */
  async abandon(): Promise<void> {
    clearTimeout(this.flushTimer);
    await this.enqueue(async () => {
      if (this.statusMode === 'assistant') await this.setStatus('');
      if (this.placeholderTs) await this.removePlaceholder();
    });
  }

  private enqueue(work: () => Promise<unknown>): Promise<void> {
    const next = this.queue.then(work).then(
      () => undefined,
      (error: unknown) => {
        this.logger.warn('team-chat reply call failed', { channel: this.target.channel, error: errorMessage(error) });
      },
    );
    this.queue = next;
    return next;
  }

  /**
   * Adds text (a model's, which may quote a tool's): escaped for the platform's markup before
   * anything else, so it can neither mention nor link, whichever way a stream is cut into deltas
   * (escaping goes character by character). Text that would take the message past the limit ends
   * it — at the last line break or space of its last fifth, if there is one, else at the limit but
   * never inside an entity — and the rest goes to a new one.
   */
  private write(text: string, schedule = true): void {
    let rest = escapeMrkdwn(text);
    while (rest) {
      const room = MAX_MESSAGE_CHARS - this.current.text.length;
      const full = rest.length > room;
      let piece = rest.slice(0, room);
      if (full) {
        const boundary = Math.max(piece.lastIndexOf('\n'), piece.lastIndexOf(' '));
        if (boundary >= 0 && this.current.text.length + boundary >= MAX_MESSAGE_CHARS * 0.8) piece = piece.slice(0, boundary + 1);
        else piece = piece.slice(0, entitySafeCut(rest, piece.length));
      }
      this.current.text += piece;
      this.current.pending += piece;
      rest = rest.slice(piece.length);
      if (full) {
        const ended = this.current;
        void this.enqueue(() => this.flush(ended, []));
        this.current = { ts: undefined, text: '', pending: '' };
      }
    }
    if (schedule) this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    const wait = Math.max(0, this.lastFlush + FLUSH_MS - performance.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.lastFlush = performance.now();
      void this.enqueue(() => this.flush(this.current, undefined));
    }, wait);
  }

  /** Sends the pending text of a message; `blocks` ends it. */
  private async flush(message: Segment, blocks: unknown[] | undefined): Promise<void> {
    if (!message.pending && !message.ts && !blocks?.length) return;
    const pending = message.pending;
    message.pending = '';
    if (this.textMode === 'stream') {
      try {
        await this.streamTo(message, pending, blocks);
        return;
      } catch (error) {
        // Streaming refused (an app or plan without it): write with updates from here on.
        if (message.ts) throw error;
        this.textMode = 'update';
      }
    }
    await this.updateTo(message, blocks);
  }

  private async streamTo(message: Segment, pending: string, blocks: unknown[] | undefined): Promise<void> {
    const { channel, threadTs, userId, teamId } = this.target;
    let unsent = pending;
    if (!message.ts) {
      const started = await this.client.chat.startStream({
        channel,
        thread_ts: threadTs,
        recipient_user_id: userId,
        ...(teamId ? { recipient_team_id: teamId } : {}),
        ...(unsent ? { markdown_text: unsent } : {}),
      });
      message.ts = started.ts;
      unsent = '';
    }
    if (!message.ts) return;
    if (blocks === undefined) {
      if (unsent) await this.client.chat.appendStream({ channel, ts: message.ts, markdown_text: unsent });
      return;
    }
    await this.client.chat.stopStream({
      channel,
      ts: message.ts,
      ...(unsent ? { markdown_text: unsent } : {}),
      ...(blocks.length ? { blocks: blocks as never } : {}),
    });
  }

  private async updateTo(message: Segment, blocks: unknown[] | undefined): Promise<void> {
    const { channel, threadTs } = this.target;
    const text = message.text || ' ';
    const content = blocks?.length ? { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }, ...blocks] } : { text };
    if (!message.ts && this.placeholderTs) message.ts = this.placeholderTs;
    if (message.ts) await this.client.chat.update({ channel, ts: message.ts, ...(content as { text: string }) });
    else message.ts = (await this.client.chat.postMessage({ channel, thread_ts: threadTs, ...(content as { text: string }) })).ts;
  }

  /** The assistant status, or the placeholder message where the app may not set one. */
  private async setStatus(status: string): Promise<void> {
    const { channel, threadTs } = this.target;
    if (this.statusMode !== 'placeholder') {
      try {
        await this.client.assistant.threads.setStatus({ channel_id: channel, thread_ts: threadTs, status });
        this.statusMode = 'assistant';
        return;
      } catch (error) {
        if (this.statusMode === 'assistant') throw error;
        this.statusMode = 'placeholder';
      }
    }
    // The placeholder speaks until the answer's text begins.
    if (!status || this.current.ts) return;
    // A tool's name is the tool server's to choose.
    const text = `_${escapeMrkdwn(status)}_`;
    if (this.placeholderTs) await this.client.chat.update({ channel, ts: this.placeholderTs, text });
    else this.placeholderTs = (await this.client.chat.postMessage({ channel, thread_ts: threadTs, text })).ts;
  }

  private async removePlaceholder(): Promise<void> {
    const ts = this.placeholderTs;
    this.placeholderTs = undefined;
    if (ts) await this.client.chat.delete({ channel: this.target.channel, ts });
  }
}
