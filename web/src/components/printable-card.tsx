// The card an emergency link is printed on (docs/emergency-links.md): the person's name, "Emergency
// information", a QR code of exactly the link, the link as text, and, when the link has a PIN,
// a word about it. Printing the page prints this card alone (style.css, @media print).
import { useQrCode } from '../hooks/use-qr-code.ts';

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
      <h3 id="print-card-heading">Emergency information</h3>
      {qr ? (
        <img class="qr" src={qr} alt="QR code of the emergency link" />
      ) : (
        <p class="muted">{qr === null ? 'The QR code could not be drawn; the link below works all the same.' : 'Drawing the QR code…'}</p>
      )}
      <p class="print-card-link">
        <code>{link}</code>
      </p>
      {hasPin && <p class="print-card-pin">The page asks for a PIN.{pinHint && <> {pinHint}</>}</p>}
    </article>
  );
}
