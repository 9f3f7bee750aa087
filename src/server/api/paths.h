/* paths.h: the default folders of `chartered serve` (paths.c): the browser
 * client and the message catalogues, found in the source tree when the
 * program runs from its build tree, else under the install prefix. */
#ifndef CHARTERED_SRV_PATHS_H
#define CHARTERED_SRV_PATHS_H

/* The folder of the browser client (index.html and its modules). */
const char *srv_default_web_dir(void);
/* The folder of the message catalogues LANG.json. */
const char *srv_default_i18n_dir(void);

#endif
