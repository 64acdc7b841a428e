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
import { t } from '../../i18n/language.ts';

/** The otpauth link as a QR code, for the authenticator app's camera. */
function OtpauthQrCode({ uri }: { uri: string }) {
  const qr = useQrCode(uri);
  if (qr === undefined) return <p class="muted">{t('mfa.drawingQr')}</p>;
  if (qr === null) return <p class="muted">{t('mfa.qrFailed')}</p>;
  return <img class="qr" src={qr} alt={t('mfa.qrAlt')} />;
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="codes-heading" class="card">
      <h2 id="codes-heading">{t('mfa.codesHeading')}</h2>
      <p>{t('mfa.codesIntro')}</p>
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
      status.say(t('mfa.isOn'));
      mfa.reload();
    }
  }
  async function change(data: FormData, form: HTMLFormElement) {
    const body = { password: text(data, 'password'), code: text(data, 'code').replace(/\s+/g, '') };
    if (data.get('do') === 'off') {
      if (await action.run(() => api.DELETE('/account/mfa/totp/', { body }))) {
        setCodes(null);
        status.say(t('mfa.isOff'));
        mfa.reload();
      }
    } else {
      const done = await action.run(() => api.POST('/account/mfa/recovery-codes/', { body }));
      if (done) {
        form.reset();
        setCodes(done.data.recovery_codes);
        status.say(t('mfa.newCodes'));
        mfa.reload();
      }
    }
  }

  let body = <Loading />;
  if (mfa.data?.totp_enabled) {
    body = (
      <>
        <p>
          {t('mfa.stateOn')} {t('mfa.codesLeft', { count: mfa.data.recovery_codes_left })}
        </p>
        {/* A key of its own per form: Preact would otherwise reuse the previous form's inputs, and
            the password just typed would show, in clear, in the next form's code field. */}
        <Form key="mfa-change" id="mfa-change" action={action} onSubmit={change}>
          <Field name="password" label={t('field.password')} type="password" autocomplete="current-password" required />
          <Field name="code" label={t('mfa.code')} autocomplete="one-time-code" hint={t('mfa.codeHint')} required />
          <p class="actions">
            <Submit action={action} name="do" value="off" variant="danger">
              {t('mfa.turnOff')}
            </Submit>
            <Submit action={action} name="do" value="codes" variant="secondary">
              {t('mfa.makeCodes')}
            </Submit>
          </p>
        </Form>
      </>
    );
  } else if (enrolment) {
    body = (
      <>
        <p>{t('mfa.enrolIntro')}</p>
        <OtpauthQrCode uri={enrolment.otpauth_url} />
        <dl class="secret">
          <dt>{t('mfa.secret')}</dt>
          <dd>
            <code id="totp-secret">{enrolment.secret}</code>
          </dd>
          <dt>{t('mfa.link')}</dt>
          <dd>
            {/* On the device with the app, following it opens the app with the account filled in. */}
            <a href={enrolment.otpauth_url}>
              <code id="totp-uri">{enrolment.otpauth_url}</code>
            </a>
          </dd>
        </dl>
        <Form key="mfa-confirm" id="mfa-confirm" action={action} onSubmit={confirm}>
          <Field name="code" label={t('mfa.appCode')} autocomplete="one-time-code" inputMode="numeric" required />
          <Submit action={action}>{t('mfa.turnOn')}</Submit>
        </Form>
      </>
    );
  } else if (mfa.data) {
    body = (
      <>
        <p>{t('mfa.stateOff')}</p>
        <Form key="mfa-start" id="mfa-start" action={action} onSubmit={start}>
          <Field name="password" label={t('field.password')} type="password" autocomplete="current-password" required />
          <Submit action={action}>{t('mfa.setUp')}</Submit>
        </Form>
      </>
    );
  }
  return (
    <Page title={t('secondStep.title')}>
      <SettingsNav />
      <Status />
      {codes && <RecoveryCodes codes={codes} />}
      {body}
    </Page>
  );
});
