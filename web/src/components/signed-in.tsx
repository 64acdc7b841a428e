// Pages that need a token: a signed-out visitor is sent to the sign-in page.
import type { ComponentType } from 'preact';
import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useToken } from '../session.ts';

export function signedIn<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  return function SignedIn(props: P) {
    const token = useToken();
    const { route } = useLocation();
    useEffect(() => {
      if (!token) route('/sign-in', true);
    }, [token]);
    return token ? <Inner {...props} /> : null;
  };
}
