// SPDX-License-Identifier: GPL-3.0-or-later
#include "Language.h"

#include "AppPaths.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>

namespace specdec::gui {

Language::Language(QObject *parent)
    : QObject(parent)
{
}

void Language::set(const QString &code)
{
    m_code = code;
    QCoreApplication::removeTranslator(&m_app);
    QCoreApplication::removeTranslator(&m_qt);
    const QLocale locale = code.isEmpty() ? QLocale::system() : QLocale(code);
    QLocale::setDefault(QLocale(locale.language(), locale.territory()));
    // The installed .qm files (share/specdec-lab/translations) take precedence over the embedded ones.
    const QString installed = dataPath(QStringLiteral("translations"));
    if ((!installed.isEmpty() && m_app.load(locale, QStringLiteral("specdec-lab"), QStringLiteral("_"), installed))
        || m_app.load(locale, QStringLiteral("specdec-lab"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(&m_app);
    if (m_qt.load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                  QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&m_qt);
}

} // namespace specdec::gui
