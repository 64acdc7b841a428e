// What an emergency link shows, as a phone shows it to a stranger in a hurry: the person's
// name, their emergency items with pictures, and their contacts with numbers to call at a tap.
import type { PublicEmergencyInfo } from '../../api/types.ts';

type Item = PublicEmergencyInfo['emergency_items'][number];
type Contact = PublicEmergencyInfo['emergency_contacts'][number];

function ItemCard({ item }: { item: Item }) {
  const media = item.media_resource;
  return (
    <li class="public-card">
      <h3>{item.name}</h3>
      {item.description && <p class="public-description">{item.description}</p>}
      {media &&
        (media.content_type.startsWith('image/') ? (
          <img class="public-picture" src={media.file} alt={media.name} />
        ) : (
          <a href={media.file} target="_blank" rel="noopener noreferrer">
            Open {media.name}
          </a>
        ))}
    </li>
  );
}

function ContactCard({ contact }: { contact: Contact }) {
  const numbers = [contact.phone_number, contact.alt_phone_number].filter(Boolean);
  return (
    <li class="public-card">
      <h3>{contact.name}</h3>
      {contact.relation && <p>{contact.relation}</p>}
      {numbers.map((number) => (
        <a key={number} class="call" href={`tel:${number}`}>
          Call {number}
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
  return (
    <>
      <p class="kicker">Emergency information</p>
      <h1>{info.name}</h1>
      <section aria-labelledby="public-items-heading">
        <h2 id="public-items-heading">Important to know</h2>
        {info.emergency_items.length === 0 ? (
          <p>Nothing is written here.</p>
        ) : (
          <ul class="public-list">
            {info.emergency_items.map((item, index) => (
              <ItemCard key={index} item={item} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="public-contacts-heading">
        <h2 id="public-contacts-heading">Who to call</h2>
        {info.emergency_contacts.length === 0 ? (
          <p>No contacts are written here.</p>
        ) : (
          <ul class="public-list">
            {info.emergency_contacts.map((contact, index) => (
              <ContactCard key={index} contact={contact} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
