#ifndef SMSGW_CGAMMU_SHIM_H
#define SMSGW_CGAMMU_SHIM_H
#include <gammu.h>
#include <stdlib.h>
#include <string.h>

/*
 * Small helpers for the Modem target. They exist where the C is awkward from Swift: fixed-size char
 * arrays, strdup'ed config strings that libgammu frees itself, and a PIN buffer that must be wiped.
 * Nothing here keeps state.
 */

/* Copies `value` into a fixed-size char array, always NUL-terminated. */
static inline void smsgw_copy_string(char *destination, size_t capacity, const char *value) {
    if (capacity == 0) return;
    if (value == NULL) value = "";
    strncpy(destination, value, capacity - 1);
    destination[capacity - 1] = '\0';
}

/*
 * Configures section 0 of the state machine from explicit values, on top of libgammu's defaults
 * (GSM_ReadConfig with no INI file fills them and answers ERR_USING_DEFAULTS). Device and
 * Connection are heap strings that GSM_FreeStateMachine frees, hence strdup.
 */
static inline GSM_Error smsgw_configure(GSM_StateMachine *s, const char *device, const char *connection,
                                        const char *model) {
    GSM_Config *cfg = GSM_GetConfig(s, 0);
    if (cfg == NULL) return ERR_BUG;
    GSM_Error error = GSM_ReadConfig(NULL, cfg, 0);
    if (error != ERR_NONE && error != ERR_USING_DEFAULTS) return error;
    free(cfg->Device);
    cfg->Device = strdup(device);
    free(cfg->Connection);
    cfg->Connection = strdup(connection);
    smsgw_copy_string(cfg->Model, sizeof(cfg->Model), model);
    smsgw_copy_string(cfg->DebugLevel, sizeof(cfg->DebugLevel), "text");
    cfg->UseGlobalDebugFile = FALSE;
    cfg->LockDevice = FALSE;
    cfg->StartInfo = FALSE;
    cfg->SyncTime = FALSE;
    GSM_SetConfigNum(s, 1);
    return ERR_NONE;
}

/*
 * Configures section 0 from section `section` of a gammurc file, read by libgammu's own parser
 * (GSM_FindGammuRC + GSM_ReadConfig), so every gammu option in it applies. Debug output is routed
 * to our log function instead of a file.
 */
static inline GSM_Error smsgw_configure_from_gammurc(GSM_StateMachine *s, const char *path, int section) {
    INI_Section *ini = NULL;
    GSM_Error error = GSM_FindGammuRC(&ini, path);
    if (error != ERR_NONE) return error;
    GSM_Config *cfg = GSM_GetConfig(s, 0);
    if (cfg == NULL) { INI_Free(ini); return ERR_BUG; }
    error = GSM_ReadConfig(ini, cfg, section);
    INI_Free(ini);
    if (error != ERR_NONE) return error;
    smsgw_copy_string(cfg->DebugLevel, sizeof(cfg->DebugLevel), "text");
    cfg->UseGlobalDebugFile = FALSE;
    GSM_SetConfigNum(s, 1);
    return ERR_NONE;
}

/* Reads one value from a gammurc file; the result is malloc'ed (free it) or NULL. */
static inline char *smsgw_gammurc_value(const char *path, const char *section, const char *key) {
    INI_Section *ini = NULL;
    if (GSM_FindGammuRC(&ini, path) != ERR_NONE) return NULL;
    unsigned char *value = INI_GetValue(ini, (const unsigned char *)section, (const unsigned char *)key, FALSE);
    char *copy = value == NULL ? NULL : strdup((const char *)value);
    INI_Free(ini);
    return copy;
}

/*
 * Routes the state machine's debug output to `function` at level "text". GSM_InitConnection_Log
 * resets the debug settings, so call this after it.
 */
static inline void smsgw_route_debug(GSM_StateMachine *s, GSM_Log_Function function, void *user_data) {
    GSM_Debug_Info *di = GSM_GetDebug(s);
    if (di == NULL) return;
    GSM_SetDebugGlobal(FALSE, di);
    GSM_SetDebugFileDescriptor(NULL, FALSE, di);
    GSM_SetDebugFunction(function, user_data, di);
    GSM_SetDebugLevel("text", di);
}

/* Enters a SIM PIN once and wipes the buffer that held it. */
static inline GSM_Error smsgw_enter_pin(GSM_StateMachine *s, const char *pin) {
    GSM_SecurityCode code;
    memset(&code, 0, sizeof(code));
    code.Type = SEC_Pin;
    smsgw_copy_string(code.Code, sizeof(code.Code), pin);
    GSM_Error error = GSM_EnterSecurityCode(s, &code);
    memset(&code, 0, sizeof(code));
    return error;
}

/* The SMS-SUBMIT layout, a mutable global in C that Swift 6 will not read directly. */
static inline GSM_SMSMessageLayout smsgw_submit_layout(void) { return PHONE_SMSSubmit; }

/* Fixed-size string getters; `value` must hold GSM_MAX_INFO_LENGTH + 1 bytes or more. */
enum { SMSGW_INFO_CAPACITY = 256 };

#endif
