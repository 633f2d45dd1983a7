import { controllerRoutes, coveredBy } from '../../testing/controller-routes';
import { ASSETS_PREFIX, WEB_PAGE_PATHS, isWebPath } from './toolkit/web-paths';
import { WebUiModule } from './web-ui.module';

describe('WebUiModule', () => {
  const routes = controllerRoutes(WebUiModule);
  const pages = routes.filter((route) => !route.startsWith(ASSETS_PREFIX));

  // Sessions, CSRF and the form parser are applied by path, not by
  // controller: a page outside those paths would run without them.
  it('puts every page behind its session and CSRF middleware', () => {
    expect(pages).toContain('/');
    expect(pages).toContain('/projects/:id/settings/monitor/hooks');
    expect(pages.filter((route) => !coveredBy(route, WEB_PAGE_PATHS))).toEqual(
      [],
    );
  });

  it('serves the assets without it, and only web paths with it', () => {
    const assets = routes.filter((route) => route.startsWith(ASSETS_PREFIX));
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.filter((route) => coveredBy(route, WEB_PAGE_PATHS))).toEqual(
      [],
    );
    expect(pages.every(isWebPath)).toBe(true);
  });
});
