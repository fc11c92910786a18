import { useNavigation } from 'react-router-dom';

/** While an in-app navigation loads its code and data, the current page stays and a thin bar says so. */
export function NavigationProgress() {
  const { state } = useNavigation();
  if (state === 'idle') return null;
  return <div className="nav-progress" role="progressbar" aria-label="Loading page" />;
}
