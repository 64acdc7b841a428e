// The card an emergency link is printed on (docs/emergency-links.md): the person's name, "Emergency
// information", a QR code of exactly the link, the link as text, and, when the link has a PIN,
// a word about it. Printing the page prints this card alone (style.css, @media print).
import { useQrCode } from '../hooks/use-qr-code.ts';
import { t } from '../i18n/language.ts';

interface PrintableCardProps {
  name: string;
  link: string;
  hasPin: boolean;
  /** The owner's words on where to find the PIN; printed, never sent. */
  pinHint: string;
}

export function PrintableCard({ name, link, hasPin, pinHint }: PrintableCardProps) {
  const qr = useQrCode(link);
  return (
    <article class="print-card" aria-labelledby="print-card-heading">
      <p class="print-card-name">{name}</p>
      <h3 id="print-card-heading">{t('data.card.heading')}</h3>
      {qr ? (
        <img class="qr" src={qr} alt={t('data.card.qrAlt')} />
      ) : (
        <p class="muted">{qr === null ? t('data.card.qrFailed') : t('data.card.qrDrawing')}</p>
      )}
      <p class="print-card-link">
        <code>{link}</code>
      </p>
      {hasPin && (
        <p class="print-card-pin">
          {t('data.card.asksPin')}
          {pinHint && <> {pinHint}</>}
        </p>
      )}
    </article>
  );
}
