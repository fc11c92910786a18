import { useHead } from '@aitools/platform';
import '../styles.css';

export default function Contact() {
  useHead({ title: 'Contact | AI Tools Directory' });
  return (
    <main className="forms-stub">
      <h1>Contact</h1>
    </main>
  );
}
