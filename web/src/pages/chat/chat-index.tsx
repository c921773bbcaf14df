import { ChatIndex } from './chat-page';

/** `/chat`: opens the chat of the workspace asked last (its own chunk is the chat page's). */
export default ChatIndex;
