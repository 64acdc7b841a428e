// /settings/mfa: TOTP enrolment (the secret and otpauth URI as text, for an authenticator
// app), confirmation, recovery codes, turning it off (docs/accounts.md).
import { useState } from 'preact/hooks';
import { useQrCode } from '../../hooks/use-qr-code.ts';
import { api } from '../../api/client.ts';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { Loading, Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { SettingsNav } from './settings-nav.tsx';

/** The otpauth link as a QR code, for the authenticator app's camera. */
function OtpauthQrCode({ uri }: { uri: string }) {
  const qr = useQrCode(uri);
  if (qr === undefined) return <p class="muted">Drawing the QR code…</p>;
  if (qr === null) return <p class="muted">The QR code could not be drawn: enter the secret below instead.</p>;
  return <img class="qr" src={qr} alt="QR code of the link for your authenticator app" />;
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="codes-heading" class="card">
      <h2 id="codes-heading">Your recovery codes</h2>
      <p>Each works once, instead of a code from the app. Keep them somewhere safe: they are not shown again.</p>
      <ul class="codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

export const MfaSettings = signedIn(function MfaSettings() {
  const mfa = useLoad(() => api.GET('/account/mfa/'));
  const action = useAction();
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const status = useStatusLine();

  async function start(data: FormData) {
    const done = await action.run(() => api.POST('/account/mfa/totp/', { body: { password: text(data, 'password') } }));
    if (done) setEnrolment(done.data);
  }
  async function confirm(data: FormData) {
    const done = await action.run(() => api.POST('/account/mfa/totp/confirm/', { body: { code: text(data, 'code').replace(/\s+/g, '') } }));
    if (done) {
      setEnrolment(null);
      setCodes(done.data.recovery_codes);
      status.say('Two-step sign-in is on.');
      mfa.reload();
    }
  }
  async function change(data: FormData, form: HTMLFormElement) {
    const body = { password: text(data, 'password'), code: text(data, 'code').replace(/\s+/g, '') };
    if (data.get('do') === 'off') {
      if (await action.run(() => api.DELETE('/account/mfa/totp/', { body }))) {
        setCodes(null);
        status.say('Two-step sign-in is off.');
        mfa.reload();
      }
    } else {
      const done = await action.run(() => api.POST('/account/mfa/recovery-codes/', { body }));
      if (done) {
        form.reset();
        setCodes(done.data.recovery_codes);
        status.say('New recovery codes are made; the old ones no longer work.');
        mfa.reload();
      }
    }
  }

  let body = <Loading />;
  if (mfa.data?.totp_enabled) {
    body = (
      <>
        <p>
          Two-step sign-in is <strong>on</strong>. Recovery codes left: {mfa.data.recovery_codes_left}.
        </p>
        {/* A key of its own per form: Preact would otherwise reuse the previous form's inputs, and
            the password just typed would show, in clear, in the next form's code field. */}
        <Form key="mfa-change" id="mfa-change" action={action} onSubmit={change}>
          <Field name="password" label="Password" type="password" autocomplete="current-password" required />
          <Field name="code" label="Code" autocomplete="one-time-code" hint="From your authenticator app, or a recovery code." required />
          <p class="actions">
            <Submit action={action} name="do" value="off" variant="danger">
              Turn off two-step sign-in
            </Submit>
            <Submit action={action} name="do" value="codes" variant="secondary">
              Make new recovery codes
            </Submit>
          </p>
        </Form>
      </>
    );
  } else if (enrolment) {
    body = (
      <>
        <p>Add this account to your authenticator app: enter the secret, or open the link on the device that has the app.</p>
        <OtpauthQrCode uri={enrolment.otpauth_url} />
        <dl class="secret">
          <dt>Secret</dt>
          <dd>
            <code id="totp-secret">{enrolment.secret}</code>
          </dd>
          <dt>Link (otpauth URI)</dt>
          <dd>
            {/* On the device with the app, following it opens the app with the account filled in. */}
            <a href={enrolment.otpauth_url}>
              <code id="totp-uri">{enrolment.otpauth_url}</code>
            </a>
          </dd>
        </dl>
        <Form key="mfa-confirm" id="mfa-confirm" action={action} onSubmit={confirm}>
          <Field name="code" label="Code from your authenticator app" autocomplete="one-time-code" inputMode="numeric" required />
          <Submit action={action}>Turn on two-step sign-in</Submit>
        </Form>
      </>
    );
  } else if (mfa.data) {
    body = (
      <>
        <p>
          Two-step sign-in is <strong>off</strong>. With it on, signing in also needs a code from an authenticator app.
        </p>
        <Form key="mfa-start" id="mfa-start" action={action} onSubmit={start}>
          <Field name="password" label="Password" type="password" autocomplete="current-password" required />
          <Submit action={action}>Set up two-step sign-in</Submit>
        </Form>
      </>
    );
  }
  return (
    <Page title="Two-step sign-in">
      <SettingsNav />
      <Status />
      {codes && <RecoveryCodes codes={codes} />}
      {body}
    </Page>
  );
});
