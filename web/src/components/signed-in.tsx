// Pages that need a token: a signed-out visitor is sent to the sign-in page, which brings them
// back here once signed in (an e-mailed link, such as an invitation's to /shared, still leads
// where it says).
import type { ComponentType } from 'preact';
import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useToken } from '../session.ts';

export function signedIn<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  return function SignedIn(props: P) {
    const token = useToken();
    const { route, url } = useLocation();
    useEffect(() => {
      if (!token) route(`/sign-in?next=${encodeURIComponent(url)}`, true);
    }, [token]);
    return token ? <Inner {...props} /> : null;
  };
}
