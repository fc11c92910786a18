import { useHead } from '@aitools/platform';
import '../styles.css';

export default function Home() {
  useHead({ title: 'Home | AI Tools Directory' });
  return (
    <main className="directory-stub">
      <h1>Home</h1>
    </main>
  );
}
