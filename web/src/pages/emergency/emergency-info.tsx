// What an emergency link shows, as a phone shows it to a stranger in a hurry: the person's
// name, their emergency items with pictures, and their contacts with numbers to call at a tap.
// The page's own words are in the reader's language; the person's text is as they wrote it,
// marked with their language (`lang`), and a line says which when it is not the reader's.
import type { PublicEmergencyInfo } from '../../api/types.ts';
import { currentLanguage, t } from '../../i18n/language.ts';

/** "German", "allemand": a language's name in the reader's language. */
function languageName(language: string): string {
  try {
    return new Intl.DisplayNames([currentLanguage()], { type: 'language' }).of(language) ?? language;
  } catch {
    return language;
  }
}

type Item = PublicEmergencyInfo['emergency_items'][number];
type Contact = PublicEmergencyInfo['emergency_contacts'][number];

function ItemCard({ item, lang }: { item: Item; lang?: string }) {
  const media = item.media_resource;
  return (
    <li class="public-card">
      <h3 lang={lang}>{item.name}</h3>
      {item.description && (
        <p class="public-description" lang={lang}>
          {item.description}
        </p>
      )}
      {media &&
        (media.content_type.startsWith('image/') ? (
          <img class="public-picture" src={media.file} alt={media.name} lang={lang} />
        ) : (
          <a href={media.file} target="_blank" rel="noopener noreferrer">
            {t('emergency.open', { name: media.name })}
          </a>
        ))}
    </li>
  );
}

function ContactCard({ contact, lang }: { contact: Contact; lang?: string }) {
  const numbers = [contact.phone_number, contact.alt_phone_number].filter(Boolean);
  return (
    <li class="public-card">
      <h3 lang={lang}>{contact.name}</h3>
      {contact.relation && <p lang={lang}>{contact.relation}</p>}
      {numbers.map((number) => (
        <a key={number} class="call" href={`tel:${number}`}>
          {t('emergency.call', { number })}
        </a>
      ))}
      {contact.email && (
        <p>
          <a href={`mailto:${contact.email}`}>{contact.email}</a>
        </p>
      )}
    </li>
  );
}

export function EmergencyInfo({ info }: { info: PublicEmergencyInfo }) {
  // The language the owner writes in.
  const lang = info.language;
  const other = lang !== currentLanguage();
  return (
    <>
      <p class="kicker">{t('emergency.title')}</p>
      <h1 lang={lang}>{info.name}</h1>
      {other && <p class="written-in">{t('emergency.writtenIn', { language: languageName(lang) })}</p>}
      <section aria-labelledby="public-items-heading">
        <h2 id="public-items-heading">{t('emergency.importantHeading')}</h2>
        {info.emergency_items.length === 0 ? (
          <p>{t('emergency.noItems')}</p>
        ) : (
          <ul class="public-list">
            {info.emergency_items.map((item, index) => (
              <ItemCard key={index} item={item} lang={lang} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="public-contacts-heading">
        <h2 id="public-contacts-heading">{t('emergency.contactsHeading')}</h2>
        {info.emergency_contacts.length === 0 ? (
          <p>{t('emergency.noContacts')}</p>
        ) : (
          <ul class="public-list">
            {info.emergency_contacts.map((contact, index) => (
              <ContactCard key={index} contact={contact} lang={lang} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
