// @ts-check
// kit/root.js - what the console and the studio portal render first: an invitation or reset link's page (opened
// without a session), else the page signed in or its sign-in screen, following the page's session.
import { useSignedIn } from '/console/kit/shell.js';
import { InvitationPage } from '/console/kit/passkeys.js';
import { html } from '/console/kit/ui.js';

/**
 * The page's root component. `name` is the page (console, portal: its address /name and its sign-in events),
 * `title` its heading, `call(method, path, body)` its API client without a session, `session` and `onUnauthorized`
 * its API client's, `ended(error)` the sign-in screen's message once the API ends a session; `Shell` is the page
 * signed in, `SignIn` its sign-in screen (props: message), and `useOnStart()`, when given, a hook run beside the
 * session's (the console's: take up an OpenID Connect sign-in).
 * @param {{
 *   name: string,
 *   title: string,
 *   call: (method: string, path: string, body?: unknown) => Promise<any>,
 *   session: { signedIn: () => boolean },
 *   onUnauthorized: (fn: (error: any) => void) => () => unknown,
 *   ended: (error: any) => string,
 *   Shell: import('/console/vendor/preact.module.js').ComponentType<{}>,
 *   SignIn: import('/console/vendor/preact.module.js').ComponentType<{ message: string }>,
 *   useOnStart?: () => void,
 * }} page
 */
export function pageRoot({ name, title, call, session, onUnauthorized, ended, Shell, SignIn, useOnStart }) {
  /** The token of an invitation or reset link (#/invitation/<token>), as the page was opened. */
  const invitation = /^#\/invitation\/([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];

  function SignedIn() {
    const { signedIn, message } = useSignedIn({ name, initial: session.signedIn(), onUnauthorized, ended });
    useOnStart?.();
    return signedIn ? html`<${Shell} />` : html`<${SignIn} message=${message} />`;
  }

  return function Root() {
    if (invitation)
      return html`<${InvitationPage} token=${invitation} call=${call} title=${title} signInHref=${`/${name}`} />`;
    return html`<${SignedIn} />`;
  };
}
