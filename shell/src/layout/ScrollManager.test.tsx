import { act, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useNavigate } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ScrollManager } from './ScrollManager';

describe('ScrollManager', () => {
  it('scrolls to the top on a new page and to a hash target once it exists', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    let navigate!: ReturnType<typeof useNavigate>;
    const Grab = () => {
      navigate = useNavigate();
      return <ScrollManager />;
    };
    const router = createMemoryRouter([{ path: '*', element: <Grab /> }], { initialEntries: ['/privacy'] });
    render(<RouterProvider router={router} />);
    await act(async () => navigate('/terms'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);

    const target = document.createElement('section');
    target.id = 'faq';
    const scrollIntoView = vi.fn();
    target.scrollIntoView = scrollIntoView;
    await act(async () => navigate('/#faq'));
    document.body.appendChild(target);
    await waitFor(() => expect(scrollIntoView).toHaveBeenCalled());
    target.remove();
  });
});
