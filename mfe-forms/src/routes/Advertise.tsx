import { useHead } from '@aitools/platform';
import '../styles.css';

export default function Advertise() {
  useHead({ title: 'Advertise | AI Tools Directory' });
  return (
    <main className="forms-stub">
      <h1>Advertise</h1>
    </main>
  );
}
