import type { Schemas } from '../../../api/client';
import { percent } from '../../../ui/format';
import { BarFigure } from './bars';
import { COLOURS } from './figure';

type Dashboard = Schemas['Dashboard'];

/** Conversations by status: the workspace's "tickets". */
export function TicketsFigure({ tickets }: { tickets: Dashboard['tickets'] }) {
  return (
    <BarFigure
      caption="Tickets by status"
      by="Status"
      note={`${tickets.total} in all`}
      unit="conversations"
      empty="No conversations yet."
      data={[
        { label: 'Open', value: tickets.open, colour: COLOURS.accent },
        { label: 'Cold', value: tickets.cold, colour: COLOURS.warn },
        { label: 'Closed', value: tickets.closed, colour: COLOURS.muted },
      ]}
    />
  );
}

/** Sentiment of closed conversations with statistics; the average is from -1 (negative) to 1 (positive). */
export function SentimentFigure({ sentiment }: { sentiment: Dashboard['sentiment'] }) {
  return (
    <BarFigure
      caption="Sentiment"
      by="Sentiment"
      note={sentiment.average === null ? undefined : `average ${sentiment.average.toFixed(2)} (from −1 to 1)`}
      unit="conversations"
      empty="No sentiment yet: it is measured when a conversation closes."
      data={[
        { label: 'Positive', value: sentiment.positive, colour: COLOURS.good },
        { label: 'Neutral', value: sentiment.neutral, colour: COLOURS.muted },
        { label: 'Negative', value: sentiment.negative, colour: COLOURS.bad },
      ]}
    />
  );
}

export function ResolutionFigure({ resolution }: { resolution: Dashboard['resolution'] }) {
  return (
    <BarFigure
      caption="Resolution"
      by="Resolution"
      note={resolution.rate === null ? undefined : `${percent(resolution.rate)} resolved`}
      unit="conversations"
      empty="No resolutions yet: they are judged when a conversation closes."
      data={[
        { label: 'Resolved', value: resolution.resolved, colour: COLOURS.good },
        { label: 'Unresolved', value: resolution.unresolved, colour: COLOURS.bad },
      ]}
    />
  );
}

export function FeedbackFigure({ feedback }: { feedback: Dashboard['feedback'] }) {
  return (
    <BarFigure
      caption="Feedback on answers"
      by="Rating"
      note={feedback.rate === null ? undefined : `${percent(feedback.rate)} thumbs up`}
      unit="ratings"
      empty="No ratings yet: people rate answers with thumbs up or down."
      data={[
        { label: 'Thumbs up', value: feedback.up, colour: COLOURS.good },
        { label: 'Thumbs down', value: feedback.down, colour: COLOURS.bad },
      ]}
    />
  );
}

export function ApprovalsFigure({ approvals }: { approvals: Dashboard['approvals'] }) {
  return (
    <BarFigure
      caption="Approvals of tool calls by status"
      by="Status"
      unit="approvals"
      empty="No approvals yet: tool calls ask for one when the workspace's approval setting says so."
      data={[
        { label: 'Pending', value: approvals.pending, colour: COLOURS.warn },
        { label: 'Approved', value: approvals.approved, colour: COLOURS.good },
        { label: 'Denied', value: approvals.denied, colour: COLOURS.bad },
        { label: 'Expired', value: approvals.expired, colour: COLOURS.muted },
      ]}
    />
  );
}

export function CategoriesFigure({ categories }: { categories: Dashboard['categories'] }) {
  return (
    <BarFigure
      caption="Conversations by category"
      by="Category"
      unit="conversations"
      empty="No categories yet: a conversation is categorised when it closes."
      data={categories.map(({ category, count }) => ({ label: category, value: count }))}
    />
  );
}

export function ChannelsFigure({ channels }: { channels: Dashboard['channels'] }) {
  return (
    <BarFigure
      caption="Conversations by channel"
      by="Channel"
      unit="conversations"
      empty="No channels yet: team-chat conversations are counted by their channel."
      data={channels.map(({ channel, count }) => ({ label: channel, value: count }))}
    />
  );
}
