import { createHash } from 'node:crypto';
import { App, LogLevel } from '@slack/bolt';
import type { AgentDeps } from '../deps.js';
import { listChatOrganisations } from '../org/index.js';
import { handleApprovalPress } from './approval-buttons.js';
import { APPROVAL_ACTIONS } from './approval-messages.js';
import { FEEDBACK_ACTIONS, handleFeedbackPress } from './feedback-buttons.js';
import type { ChatTeam } from '../chat/index.js';
import { handleChatMessage, type ChatMessageEvent } from './messages.js';
import { chatClientOptions } from '../chat/web.js';
import { errorMessage } from '../platform/errors.js';

type BoltApp = InstanceType<typeof App>;

/** The 👍/👎 buttons under answers. */
const FEEDBACK_ACTION_IDS = new RegExp(`^(${FEEDBACK_ACTIONS.up}|${FEEDBACK_ACTIONS.down})$`);
/** The Approve / Deny buttons of approval messages. */
const APPROVAL_ACTION_IDS = new RegExp(`^(${APPROVAL_ACTIONS.approve}|${APPROVAL_ACTIONS.deny})$`);

/** The fields of a button press (`block_actions`) the bridge reads. */
interface ButtonPress {
  user?: { id?: string; team_id?: string };
  team?: { id?: string } | null;
  channel?: { id?: string };
  message?: { ts?: string; thread_ts?: string };
}

interface RunningBridge {
  app: BoltApp;
  fingerprint: string;
}

export interface ChatBridgeOptions {
  /** How often the index of configured organisations is read (5 s locally, 30 s on AWS). */
  pollMs: number;
}

/** A Bolt logger that goes to ours, quietly. */
function boltLogger(deps: AgentDeps) {
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...message: unknown[]) => deps.logger.warn('chat bridge', { detail: message.map(String).join(' ') }),
    error: (...message: unknown[]) => deps.logger.error('chat bridge', { detail: message.map(String).join(' ') }),
    setLevel: () => undefined,
    getLevel: () => LogLevel.WARN,
    setName: () => undefined,
  };
}

/**
 * Registers the bridge's listeners, one named callback each (the Bolt starter template's shape).
 * Bolt acknowledges each event envelope before the listener runs; the work is `handleChatMessage`.
 */
function registerListeners(app: BoltApp, deps: AgentDeps, orgId: string, team: ChatTeam): void {
  const onMessage = async ({
    event,
    body,
    context,
    client,
  }: {
    event: unknown;
    body: unknown;
    context: { botUserId?: string; teamId?: string };
    client: BoltApp['client'];
  }) => {
    const eventId = (body as { event_id?: string }).event_id;
    try {
      const chat = { orgId, team, botUserId: context.botUserId ?? '', teamId: context.teamId, client };
      await handleChatMessage(deps, chat, event as ChatMessageEvent, eventId);
    } catch (error) {
      deps.logger.error('chat message failed', { orgId, eventId, error: errorMessage(error) });
    }
  };
  app.event('app_mention', onMessage);
  app.message(onMessage);
  app.action({ action_id: FEEDBACK_ACTION_IDS }, async ({ ack, body, action, client }) => {
    await ack();
    const press = body as ButtonPress;
    const button = action as { action_id: string; value?: string };
    if (!press.user?.id || !press.channel?.id) return;
    try {
      await handleFeedbackPress(
        deps,
        { orgId, client },
        {
          user: press.user.id,
          channel: press.channel.id,
          threadTs: press.message?.thread_ts ?? press.message?.ts,
          actionId: button.action_id,
          value: button.value,
        },
      );
    } catch (error) {
      deps.logger.error('chat feedback failed', { orgId, error: errorMessage(error) });
    }
  });
  app.action({ action_id: APPROVAL_ACTION_IDS }, async ({ ack, body, action, client, context }) => {
    await ack();
    const press = body as ButtonPress;
    const button = action as { action_id: string; value?: string };
    if (!press.user?.id || !press.channel?.id) return;
    try {
      await handleApprovalPress(
        deps,
        { orgId, team, teamId: context.teamId, client },
        {
          user: press.user.id,
          userTeam: press.user.team_id ?? press.team?.id ?? undefined,
          channel: press.channel.id,
          messageTs: press.message?.ts,
          actionId: button.action_id,
          value: button.value,
        },
      );
    } catch (error) {
      deps.logger.error('chat approval failed', { orgId, error: errorMessage(error) });
    }
  });
}

/**
 * The team-chat bridge: one socket-mode connection per organisation that has both chat tokens.
 * It polls the index of configured organisations, starts a connection for a new one, restarts it
 * when its tokens change and stops it when they are removed.
 */
export class ChatBridge {
  private readonly running = new Map<string, RunningBridge>();
  private readonly failed = new Map<string, { fingerprint: string; until: number }>();
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly deps: AgentDeps,
    private readonly options: ChatBridgeOptions,
  ) {}

  /** Organisations with a live connection. */
  get connectedOrganisations(): string[] {
    return [...this.running.keys()];
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.pollMs);
    this.timer.unref();
  }

  /** Reads the configured organisations and brings the connections in line (one refresh at a time). */
  refresh(): Promise<void> {
    this.refreshing ??= this.reconcile().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async reconcile(): Promise<void> {
    if (this.stopped) return;
    let configured: Awaited<ReturnType<typeof listChatOrganisations>>;
    try {
      configured = await listChatOrganisations(this.deps);
    } catch (error) {
      this.deps.logger.error('chat bridge could not read its organisations', { error: errorMessage(error) });
      return;
    }
    const wanted = new Map(
      configured.map(({ orgId, botToken, appToken }) => [
        orgId,
        { botToken, appToken, fingerprint: createHash('sha256').update(`${botToken}\u0000${appToken}`).digest('hex') },
      ]),
    );
    for (const [orgId, bridge] of this.running) {
      if (wanted.get(orgId)?.fingerprint !== bridge.fingerprint) await this.stopOrganisation(orgId, 'tokens changed or removed');
    }
    for (const [orgId, tokens] of wanted) {
      if (this.running.has(orgId) || this.stopped) continue;
      const failure = this.failed.get(orgId);
      if (failure && failure.fingerprint === tokens.fingerprint && failure.until > this.deps.clock.now().getTime()) continue;
      await this.startOrganisation(orgId, tokens);
    }
  }

  private async startOrganisation(orgId: string, tokens: { botToken: string; appToken: string; fingerprint: string }): Promise<void> {
    const clientOptions = chatClientOptions(this.deps.config.slackApiUrl);
    const app = new App({
      token: tokens.botToken,
      appToken: tokens.appToken,
      socketMode: true,
      // SLACK_API_URL for the app's Web API client and for the socket-mode receiver's own client.
      clientOptions,
      installerOptions: { clientOptions },
      logger: boltLogger(this.deps),
      logLevel: LogLevel.WARN,
    });
    try {
      // The chat team the bot is installed in: only its members (not guests) act as users of the service.
      const identity = await app.client.auth.test();
      if (!identity.team_id) throw new Error('auth.test named no team');
      registerListeners(app, this.deps, orgId, { id: identity.team_id, name: identity.team ?? identity.team_id });
      await app.start();
      this.running.set(orgId, { app, fingerprint: tokens.fingerprint });
      this.failed.delete(orgId);
      this.deps.logger.info('team-chat bridge connected', { orgId });
    } catch (error) {
      // Bad tokens or the platform unreachable: try again after a minute, or at once if the tokens change.
      this.failed.set(orgId, { fingerprint: tokens.fingerprint, until: this.deps.clock.now().getTime() + 60_000 });
      this.deps.logger.warn('team-chat bridge could not connect', { orgId, error: errorMessage(error) });
      await app.stop().catch(() => undefined);
    }
  }

  private async stopOrganisation(orgId: string, reason: string): Promise<void> {
    const bridge = this.running.get(orgId);
    this.running.delete(orgId);
    await bridge?.app.stop().catch(() => undefined);
    this.deps.logger.info('team-chat bridge disconnected', { orgId, reason });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.refreshing;
    for (const orgId of [...this.running.keys()]) await this.stopOrganisation(orgId, 'shutting down');
  }
}
