// A QR code drawn in the browser (the `qrcode` package), as a PNG data URL: the printable card
// of an emergency link, and the otpauth link an authenticator app scans when two-step sign-in
// is set up.
import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'preact/hooks';

/** A PNG of the QR code of `text` as a data URL: undefined while it is drawn, null if it cannot be. */
export function useQrCode(text: string): string | null | undefined {
  const [image, setImage] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    setImage(undefined);
    // Level M survives a scuffed or folded card; 4 modules of margin is the standard's quiet zone.
    toDataURL(text, { errorCorrectionLevel: 'M', margin: 4, scale: 6 }).then(
      (url) => current && setImage(url),
      () => current && setImage(null),
    );
    return () => {
      current = false;
    };
  }, [text]);
  return image;
}
