// On the emergency information page: where its owner makes links and cards that show it.
export function EmergencyLinksPointer() {
  return (
    <p>
      To let a first responder read this without an account, give them a link or a printed card with a QR code:{' '}
      <a href="/data/emergency/links">Emergency links</a>.
    </p>
  );
}
