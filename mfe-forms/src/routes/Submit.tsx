import { useHead } from '@aitools/platform';
import '../styles.css';

export default function Submit() {
  useHead({ title: 'Submit | AI Tools Directory' });
  return (
    <main className="forms-stub">
      <h1>Submit</h1>
    </main>
  );
}
