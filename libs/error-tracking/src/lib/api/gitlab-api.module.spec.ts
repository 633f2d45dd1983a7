import { controllerRoutes, coveredBy } from '../../testing/controller-routes';
import { GITLAB_API_PATHS, GitLabApiModule } from './gitlab-api.module';

describe('GitLabApiModule', () => {
  // Its body and content-type middleware is applied by path, not by
  // controller: a route outside those paths would get no parsed body.
  it('applies its middleware to every route of its controllers', () => {
    const routes = controllerRoutes(GitLabApiModule);
    expect(routes).toContain('/api/v4/users/:user_id/personal_access_tokens');
    expect(routes).toContain('/api/v4/projects/:id/hooks/:hook_id');
    expect(routes.filter((r) => !coveredBy(r, GITLAB_API_PATHS))).toEqual([]);
  });

  it('leaves the collector, which reads its own bodies, alone', () => {
    expect(
      coveredBy(
        '/api/v4/error_tracking/collector/api/:projectId/envelope',
        GITLAB_API_PATHS,
      ),
    ).toBe(false);
  });
});
