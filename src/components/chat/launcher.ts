/**
 * @module The launcher's script, on every page: upgrades ChatLauncher's link to /contact into a button, and
 * loads the chat (chat.ts) on first use: when the button is hovered, focused or pressed, or when another part of
 * the page asks for the chat (the lead form's failure message dispatches `kartage:open-chat`). Nothing of the
 * chat is fetched before that. When the chat cannot load (offline), the button does what the link did.
 */

/** The event another script dispatches on `document` to open the chat; `detail.opener` gets focus back. */
export const OPEN_CHAT_EVENT = 'kartage:open-chat';

type ChatModule = typeof import('./chat.ts');
let loading: Promise<ChatModule> | undefined;
const load = (): Promise<ChatModule> => {
  loading ??= import('./chat.ts');
  loading.catch(() => {
    loading = undefined; // a later attempt may succeed
  });
  return loading;
};

export function initChatLauncher(): void {
  const link = document.querySelector<HTMLAnchorElement>('a[data-chat-launcher]');
  if (!link) return;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = link.className;
  button.dataset.chatLauncher = '';
  button.setAttribute('aria-haspopup', 'dialog');
  button.append(...link.childNodes);
  const hadFocus = document.activeElement === link;
  link.replaceWith(button);
  if (hadFocus) button.focus();

  const open = async (opener: HTMLElement) => {
    button.setAttribute('aria-busy', 'true');
    try {
      (await load()).openChat(opener, button);
    } catch {
      location.assign(link.href);
    } finally {
      button.removeAttribute('aria-busy');
    }
  };
  const warm = () => void load().catch(() => {});
  button.addEventListener('pointerenter', warm, { once: true });
  button.addEventListener('focus', warm, { once: true });
  button.addEventListener('click', () => open(button));
  document.addEventListener(OPEN_CHAT_EVENT, (e) => {
    const opener = (e as CustomEvent<{ opener?: HTMLElement }>).detail?.opener;
    open(opener instanceof HTMLElement ? opener : button);
  });
}
