// On the emergency information page: where its owner makes links and cards that show it.
import { Rich } from '../../components/rich-text.tsx';
import { t } from '../../i18n/language.ts';

export function EmergencyLinksPointer() {
  return (
    <p>
      <Rich k="data.emergency.linksPointer" parts={{ link: <a href="/data/emergency/links">{t('data.emergencyLinks')}</a> }} />
    </p>
  );
}
