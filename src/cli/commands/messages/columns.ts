// The columns of messages in lists (messages list, a piped thread) and the fields a single message
// shows first. One place, shared by the messages, conversations and trigger commands.
export const MESSAGE_LIST_COLUMNS = ['id', 'direction', 'from', 'to', 'status', 'segments', 'createdAt', 'body'];
export const MESSAGE_COLUMNS = ['id', 'status', 'reason', 'direction', 'from', 'to', 'body', 'channel', 'segments', 'media', 'createdAt'];
