import type { EventRecord } from '../storage/events-repo.js';
import type { FeedPage } from '../domain/events/feed.js';
import type { EventFeed, EventFeedItem } from '../../api/schemas/events.js';

// Records → API shapes for the events feed (spec: Events feed; contract §10): an item is
// byte-for-byte the stored webhook body plus `eventId`. Rules for reads: views/README.md.

export const feedItemView = (e: EventRecord): EventFeedItem => ({ ...(e.body as { id: string; type: string; createdAt: string }), eventId: e.id });

export const eventFeedView = (page: FeedPage): EventFeed => ({ data: page.events.map(feedItemView), cursor: page.cursor, hasMore: page.hasMore });
