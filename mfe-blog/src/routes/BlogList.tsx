import { useHead } from '@aitools/platform';
import '../styles.css';

export default function BlogList() {
  useHead({ title: 'BlogList | AI Tools Directory' });
  return (
    <main className="blog-stub">
      <h1>BlogList</h1>
    </main>
  );
}
